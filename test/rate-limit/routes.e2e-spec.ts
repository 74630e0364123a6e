// Limits on routes, in one suite: each file of test/rate-limit/routes/ describes its applications
// with their own setup and teardown (@RateLimit on the application's routes, route options, the
// Redis key prefix, PostgreSQL's unlogged counters table, the built-in endpoints, no lockout by
// strangers). The guard alone and its login failures are specs of libs/auth/src/rate-limit. Who
// owns the Redis client starts a process: processes.e2e-spec.ts.
await import('./routes/application-routes.js');
await import('./routes/route-options.js');
await import('./routes/redis-key-prefix.js');
await import('./routes/postgres-unlogged.js');
await import('./routes/built-in-endpoints.js');
await import('./routes/no-lockout-by-strangers.js');
