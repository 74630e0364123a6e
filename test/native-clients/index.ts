// Native clients beside the web (docs/guides/machine-access.md, "Native clients"):
// each file of test/native-clients/cases/ describes its applications with their own setup and teardown.
await import('./cases/tokens.js');
await import('./cases/refresh.js');
await import('./cases/logout-and-devices.js');
await import('./cases/credential-routes.js');
await import('./cases/hooks.js');
await import('./cases/without-option.js');
await import('./cases/global-guard.js');
await import('./cases/config.js');
await import('./cases/openapi.js');
