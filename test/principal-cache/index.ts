// The principal cache: each file of test/principal-cache/one-instance/
// describes its applications with their own setup and teardown (bounds, user bodies that change); then two
// instances on one database (two-instances.ts). Who owns the Redis client starts a process: processes.e2e-spec.ts.
await import('./one-instance/bounds.js');
await import('./one-instance/user-body-changes.js');
await import('./two-instances.js');
