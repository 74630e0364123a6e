// Roles and permissions: each file of
// test/authorization/cases/ describes its applications with their own setup and teardown.
await import('./cases/startup.js');
await import('./cases/guards.js');
await import('./cases/provider-signup.js');
await import('./cases/openapi.js');
await import('./cases/two-instances.js');
await import('./cases/assign-roles.js');
