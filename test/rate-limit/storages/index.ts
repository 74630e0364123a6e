// The storage contract (and each backend's own rules) on every backend: each file of
// test/rate-limit/storages/ describes one backend with its own setup and teardown; then a backend
// that is down (rateLimit.onBackendError). The Redis Cluster backend starts its redis-server nodes:
// processes.e2e-spec.ts.
await import('./memory.js');
await import('./sqlite.js');
await import('./postgres.js');
await import('./redis.js');
await import('./backend-down.js');
