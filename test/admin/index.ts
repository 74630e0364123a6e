// User administration (docs/guides/administration.md): each file of test/admin/cases/
// describes its applications with their own setup and teardown.
await import('./cases/user-list.js');
await import('./cases/user-actions.js');
await import('./cases/impersonation.js');
await import('./cases/restrictions.js');
await import('./cases/permissions.js');
await import('./cases/two-instances.js');
await import('./cases/startup.js');
await import('./cases/openapi.js');
