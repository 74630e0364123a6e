// The oauth2 login flows: each file of test/oauth2/flows/ describes its applications
// with their own setup and teardown (login, account rules, state, used states, rate limit, a failing provider).
await import('./flows/login.js');
await import('./flows/account-rules.js');
await import('./flows/state.js');
await import('./flows/used-states.js');
await import('./flows/rate-limit.js');
await import('./flows/provider-faults.js');
