// svc/openapi: what needs @nestjs/swagger (an optional peer dependency), apart from the main entry.
export { addAuthToDocument } from './auth-openapi.js';
