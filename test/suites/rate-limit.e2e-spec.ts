// Jest's suite of the rate limiter in-process (see README.md beside this file): limits on routes, the
// storage contract on every backend.
await import('../rate-limit/routes/index.js');
await import('../rate-limit/storages/index.js');
