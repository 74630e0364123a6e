// The OpenAPI document of an application's guarded routes (the demo's own document: apps/demo/test/openapi).
await import('./cases/guarded-routes.js');
