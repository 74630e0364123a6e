// Jest's suite of what svc mails (see README.md beside this file): email verification and change of
// email, security notices, svc's own mail and deleting one's account.
await import('../email-lifecycle/index.js');
await import('../account-security-mail/index.js');
