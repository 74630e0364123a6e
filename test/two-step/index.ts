// Two-step login: each file of test/two-step/cases/
// describes its applications with their own setup and teardown.
await import('./cases/challenge-once.js');
await import('./cases/codes.js');
await import('./cases/flow.js');
await import('./cases/limits.js');
await import('./cases/migration.js');
await import('./cases/passkey-logins.js');
await import('./cases/provider-logins.js');
await import('./cases/rfc6238-vectors.js');
await import('./cases/settings.js');
await import('./cases/startup-and-shape.js');
await import('./cases/two-instances.js');
