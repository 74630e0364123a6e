// The principal cache's case that starts a process (Jest's `system` project): who owns the Redis
// client (redis-url.ts: an application in its own Node process must exit by itself after app.close()).
await import('./redis-url.js');
