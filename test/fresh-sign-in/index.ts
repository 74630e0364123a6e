// Fresh sign-in (docs/guides/account-security.md): each file of
// test/fresh-sign-in/cases/ describes its applications with their own setup and teardown.
await import('./cases/stale-and-password.js');
await import('./cases/totp-and-passkey.js');
await import('./cases/rules.js');
await import('./cases/migration.js');
await import('./cases/providers.js');
await import('./cases/account-and-keys.js');
