// API keys (docs/guides/machine-access.md): each file of test/api-keys/cases/
// describes its applications with their own setup and teardown.
await import('./cases/keys.js');
await import('./cases/authentication.js');
await import('./cases/not-allowed.js');
await import('./cases/limit-race.js');
await import('./cases/startup.js');
await import('./cases/openapi.js');
