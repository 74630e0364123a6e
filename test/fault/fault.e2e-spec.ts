// Faults in one suite: each file of test/fault/backends/ describes its
// applications with their own setup and teardown; then before-hooks that crash or never settle (before-hooks.ts).
await import('./backends/observers.js');
await import('./backends/postgres-connection-killed.js');
await import('./backends/postgres-stopped.js');
await import('./backends/redis-stopped.js');
await import('./before-hooks.js');
