// Security notices, svc's own mail and deleting one's account (docs/guides/account-security.md):
// each file of test/account-security-mail/cases/ describes its applications with their
// own setup and teardown.
await import('./cases/notices.js');
await import('./cases/linked-identities.js');
await import('./cases/account-deletion.js');
await import('./cases/mail.js');
