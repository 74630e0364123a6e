// The demo page's tokens, optional features and messages in Chromium, in one suite (one module
// loading): the jwt page's renewal, organizations, API keys, the messages of refused requests. The
// jwt cases share the suite's demo with a shiftable clock (support/suite-demos.ts), each test with
// accounts of its own; the others start their own demos, all on the suite's Chromium connection.
import { closeTheSuiteAfterAll } from './support/chromium.js';

closeTheSuiteAfterAll();
await import('./cases/jwt-page.js');
await import('./cases/jwt-renewal-page.js');
await import('./cases/organizations-page.js');
await import('./cases/api-keys-page.js');
await import('./cases/page-messages.js');
