import { SetMetadata } from '@nestjs/common';

/** Metadata keys of the access decorators (read by the global guard and `@CurrentUser()`). */
export const PUBLIC_ROUTE = 'svc:public-route';
export const OPTIONAL_AUTH_ROUTE = 'svc:optional-auth-route';

/**
 * With `globalGuard: true`, opens a route (or every route of a controller) to everyone. Without a
 * global guard it changes nothing. The library's own routes are public already (its `/me` checks
 * its credential itself).
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/**
 * With `globalGuard: true`, serves a route to everyone and tells it who is signed in:
 * `@CurrentUser()` is the user body, or `undefined` for a request without a (valid) credential.
 */
export const OptionalAuth = (): MethodDecorator & ClassDecorator => SetMetadata(OPTIONAL_AUTH_ROUTE, true);
