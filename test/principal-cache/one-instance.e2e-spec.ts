// The principal cache of one instance in one suite: each file of test/principal-cache/one-instance/
// describes its applications with their own setup and teardown (bounds, user bodies that change).
await import('./one-instance/bounds.js');
await import('./one-instance/user-body-changes.js');
