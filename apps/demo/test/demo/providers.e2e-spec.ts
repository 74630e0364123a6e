// The demo signing people in through providers, in one suite: AUTH_LOGIN's sets of methods
// (login-set), and the oauth2 and oidc strategies alone. Each module registers its demos and
// their providers with startForSuite (suite-demos.ts): they start together before the first test.
await import('./providers/login-set.js');
await import('./providers/oauth2.js');
await import('./providers/oidc.js');
