// svc as a Nest module: each file of test/nest-native/cases/
// describes its applications with their own setup and teardown.
await import('./cases/application-errors.js');
await import('./cases/client-address.js');
await import('./cases/global-guard.js');
await import('./cases/global-prefix.js');
await import('./cases/health.js');
await import('./cases/purge.js');
await import('./cases/request-user.js');
await import('./cases/revoke-all.js');
await import('./cases/typed-users.js');
