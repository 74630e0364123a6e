// The demo page's password forms and signed-in card in Chromium, in one suite (one module loading):
// signup, login, password reset and the CSP watch (password-page), required email verification,
// the email area and device list, Delete account, recent activity. The case modules share the
// suite's Chromium connection and its plain demos, one per credential (support/suite-demos.ts),
// each test with accounts of its own.
import { closeTheSuiteAfterAll } from './support/chromium.js';

closeTheSuiteAfterAll();
await import('./cases/password-page.js');
await import('./cases/email-page.js');
await import('./cases/devices-page.js');
await import('./cases/delete-account-page.js');
await import('./cases/activity-page.js');
