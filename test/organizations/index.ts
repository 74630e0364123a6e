// Organizations (docs/guides/organizations.md): each file of test/organizations/cases/
// describes its applications with their own setup and teardown.
await import('./cases/routes.js');
await import('./cases/invitations.js');
await import('./cases/active-organization.js');
await import('./cases/two-instances.js');
await import('./cases/last-owner.js');
await import('./cases/startup.js');
await import('./cases/activity.js');
await import('./cases/mail.js');
await import('./cases/api-keys.js');
