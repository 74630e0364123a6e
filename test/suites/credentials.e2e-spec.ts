// Jest's suite of the credentials (see README.md beside this file): the session and jwt credentials,
// devices, svc as a Nest module, native clients.
await import('../session/index.js');
await import('../jwt/index.js');
await import('../devices/index.js');
await import('../nest-native/index.js');
await import('../native-clients/index.js');
