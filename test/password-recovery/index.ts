// Password recovery: each file of test/password-recovery/cases/
// describes its applications with their own setup and teardown.
await import('./cases/change-password.js');
await import('./cases/forgot-password.js');
await import('./cases/login-failure.js');
await import('./cases/recovery-hooks-events.js');
await import('./cases/recovery-rate-limit.js');
await import('./cases/reset-password.js');
