// The demo's settings, each on demos of its own, in one suite: svc/client against API keys and
// organizations, AUTH_EMAIL_VERIFICATION=required, passkeys and AUTH_BASE_URL, AUTH_NATIVE_CLIENTS
// and AUTH_JWT_ALG. Each module registers its demos with startForSuite (suite-demos.ts): they start
// together before the first test.
await import('./settings/client.js');
await import('./settings/email.js');
await import('./settings/passkeys.js');
await import('./settings/native-clients.js');
await import('./settings/jwt-signing.js');
