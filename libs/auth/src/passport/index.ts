// svc/passport: for another service that accepts svc's access tokens; needs @nestjs/passport, passport
// and passport-jwt (optional peer dependencies), apart from the main entry.
export { type SvcJwtAsyncOptions, SvcJwtModule } from './svc-jwt.module.js';
export type { SvcJwtOptions, SvcJwtUser } from './svc-jwt.options.js';
export { SVC_JWT_STRATEGY, SvcJwtStrategy } from './svc-jwt.strategy.js';
