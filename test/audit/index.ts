// The activity log and the new_device notice (docs/guides/account-security.md): each
// file of test/audit/cases/ describes its applications with their own setup and teardown.
await import('./cases/every-action.js');
await import('./cases/identities.js');
await import('./cases/rollback.js');
await import('./cases/own-activity.js');
await import('./cases/admin-list.js');
await import('./cases/new-device.js');
await import('./cases/retention.js');
await import('./cases/without-section.js');
await import('./cases/migration.js');
await import('./cases/keys-and-deletion.js');
