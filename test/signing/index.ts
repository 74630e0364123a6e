// Signed access tokens, /jwks and svc/passport (docs/guides/machine-access.md): each file
// of test/signing/cases/ describes its applications with their own setup and teardown.
await import('./cases/config.js');
await import('./cases/jwks.js');
await import('./cases/forged-tokens.js');
await import('./cases/resource-server.js');
await import('./cases/rotation.js');
await import('./cases/openapi.js');
