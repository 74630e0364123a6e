// The rate limiter's cases that start processes (Jest's `system` project): who owns the Redis client
// (routes/redis-url.ts: an application in its own Node process must exit by itself after
// app.close()), and the storage contract on a Redis Cluster of redis-server nodes
// (storages/redis-cluster.ts).
await import('./routes/redis-url.js');
await import('./storages/redis-cluster.js');
