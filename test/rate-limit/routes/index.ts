// Limits on routes: each file of test/rate-limit/routes/ describes its applications
// with their own setup and teardown (@RateLimit on the application's routes, route options, the
// Redis key prefix, PostgreSQL's unlogged counters table, the built-in endpoints, no lockout by
// strangers). The guard alone and its login failures are specs of libs/auth/src/rate-limit. Who
// owns the Redis client starts a process: processes.e2e-spec.ts.
await import('./application-routes.js');
await import('./route-options.js');
await import('./redis-key-prefix.js');
await import('./postgres-unlogged.js');
await import('./built-in-endpoints.js');
await import('./no-lockout-by-strangers.js');
