// svc/openapi: what needs @nestjs/swagger (an optional peer dependency), apart from the main entry.
export { type AuthDocumentOptions, addAuthToDocument } from './auth-openapi.js';
export { type AuthRouteName, authRoutesOf } from './library-routes.js';
