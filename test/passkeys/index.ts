// Passkeys: each file of test/passkeys/cases/
// describes its applications with their own setup and teardown.
await import('./cases/instances.js');
await import('./cases/list-and-remove.js');
await import('./cases/migration.js');
await import('./cases/refusals.js');
await import('./cases/register-and-login.js');
await import('./cases/startup-and-shape.js');
