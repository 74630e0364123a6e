// The session credential: each file of test/session/cases/
// describes its applications with their own setup and teardown.
await import('./cases/hooks-events.js');
await import('./cases/http-rules.js');
await import('./cases/observer-drain.js');
await import('./cases/session-flows.js');
await import('./cases/unit-of-work.js');
