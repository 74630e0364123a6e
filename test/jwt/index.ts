// The jwt credential: each file of test/jwt/cases/
// describes its applications with their own setup and teardown.
await import('./cases/config.js');
await import('./cases/forged-tokens.js');
await import('./cases/grace.js');
await import('./cases/logout.js');
await import('./cases/password-reset.js');
await import('./cases/purge.js');
await import('./cases/rate-limit.js');
await import('./cases/refresh.js');
await import('./cases/tokens.js');
