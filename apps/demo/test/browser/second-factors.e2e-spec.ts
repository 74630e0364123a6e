// The demo page's second factors in Chromium, in one suite (one module loading): two-step login,
// passkeys, fresh sign-in. Each case module starts its own demos, on the suite's Chromium connection.
import { closeTheSuiteAfterAll } from './support/chromium.js';

closeTheSuiteAfterAll();
await import('./cases/two-step-page.js');
await import('./cases/passkeys-page.js');
await import('./cases/fresh-sign-in-page.js');
