// The storage contract (and each backend's own rules) on every backend, in one suite: each file of
// test/rate-limit/storages/ describes one backend with its own setup and teardown; then a backend
// that is down (rateLimit.onBackendError). The Redis Cluster backend starts its redis-server nodes:
// processes.e2e-spec.ts.
await import('./storages/memory.js');
await import('./storages/sqlite.js');
await import('./storages/postgres.js');
await import('./storages/redis.js');
await import('./storages/backend-down.js');
