// Jest's suite of what a sign-in proves (see README.md beside this file): two-step login, passkeys,
// fresh sign-in.
await import('../two-step/index.js');
await import('../passkeys/index.js');
await import('../fresh-sign-in/index.js');
