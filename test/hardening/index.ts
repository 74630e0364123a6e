// Hardening: each file of test/hardening/inputs/ describes its
// applications with their own setup and teardown (the HTTP layer, input rules, the limiter's input, look-alike emails);
// then a login racing a password reset (login-reset-race.ts).
await import('./inputs/http-layer.js');
await import('./inputs/input-rules.js');
await import('./inputs/limiter-input.js');
await import('./inputs/look-alike-emails.js');
await import('./login-reset-race.js');
