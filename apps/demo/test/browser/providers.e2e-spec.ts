// The demo page with providers in Chromium, in one suite (one module loading): the OAuth strategies'
// logins, linking a provider identity to a password account, two-step login after a provider
// login. Each case module starts its own providers and demos, on the suite's Chromium connection.
import { closeTheSuiteAfterAll } from './support/chromium.js';

closeTheSuiteAfterAll();
await import('./cases/provider-page.js');
await import('./cases/linking-page.js');
await import('./cases/two-step-provider-page.js');
