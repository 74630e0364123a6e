// Jest's suite of the package's surface (see README.md beside this file): startup checks, migrations,
// the OpenAPI document, the testing kit, the typed client, signed tokens and svc/passport, the docs' links.
await import('../config/startup-checks.js');
await import('../migrations/index.js');
await import('../openapi/index.js');
await import('../testing-kit/testing-kit.js');
await import('../client/index.js');
await import('../signing/index.js');
await import('../docs/links.js');
