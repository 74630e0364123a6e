// The oidc strategy: each file of test/oidc/flows/ describes its applications with their
// own setup and teardown (login against oidc-provider, a hostile provider).
await import('./flows/login.js');
await import('./flows/hostile-provider.js');
