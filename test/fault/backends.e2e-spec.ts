// Faults of observers and backends in one suite: each file of test/fault/backends/ describes its
// applications with their own setup and teardown.
await import('./backends/observers.js');
await import('./backends/postgres-connection-killed.js');
await import('./backends/postgres-stopped.js');
await import('./backends/redis-stopped.js');
