// The typed client svc/client (docs/guides/client.md) against the library's application over real
// HTTP: each file of test/client/cases/ describes its applications with their own setup and teardown.
await import('./cases/password.js');
await import('./cases/account.js');
await import('./cases/two-step.js');
await import('./cases/passkeys.js');
await import('./cases/admin.js');
await import('./cases/providers.js');
await import('./cases/api-keys.js');
await import('./cases/native.js');
await import('./cases/organizations.js');
await import('./cases/browser-bundle.js');
