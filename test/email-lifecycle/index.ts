// Email verification and change of email: each file of test/email-lifecycle/cases/
// describes its applications with their own setup and teardown.
await import('./cases/change-email.js');
await import('./cases/migration.js');
await import('./cases/pending-changes.js');
await import('./cases/pre-hijacking.js');
await import('./cases/provider-users.js');
await import('./cases/required.js');
await import('./cases/signup-race.js');
await import('./cases/startup-and-shape.js');
await import('./cases/verification.js');
