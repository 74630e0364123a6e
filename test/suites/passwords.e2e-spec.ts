// Jest's suite of the password's life (see README.md beside this file): recovery, hardening of the
// inputs, the application's own errors.
await import('../password-recovery/index.js');
await import('../hardening/index.js');
await import('../application-errors/application-errors.js');
