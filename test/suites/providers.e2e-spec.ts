// Jest's suite of provider logins (see README.md beside this file): OAuth 2.0, OpenID Connect, several
// ways into one account, and the self-test of the loopback provider harness.
await import('../support/oauth/harness.js');
await import('../oauth2/index.js');
await import('../oidc/index.js');
await import('../several-ways-in/index.js');
