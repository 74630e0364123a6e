// The OpenAPI document, in one suite (one module loading for the folder): each file of test/openapi/cases/
// describes its applications with their own setup and teardown.
await import('./cases/guarded-routes.js');
await import('./cases/openapi.js');
