import { applyDecorators, SetMetadata, UseGuards, UseInterceptors } from '@nestjs/common';
import { LoginFailuresInterceptor } from './login-failures.interceptor.js';
import { RATE_LIMIT_ROUTE, type RateLimitRoute } from './rate-limit.constants.js';
import { RateLimitGuard } from './rate-limit.guard.js';

/** What `@RateLimit()` may change for one route; the rest comes from the `rateLimit` section. */
export interface RateLimitRouteOptions {
  /** @default rateLimit.max */
  max?: number;
  /** @default rateLimit.windowSeconds */
  windowSeconds?: number;
  /** 'user' counts the signed-in user (`request.user.id`), or the address of an anonymous request. @default 'ip' */
  by?: 'ip' | 'user';
}

/**
 * Limits a route (or every route of a controller) per client, keyed `<client>:<route path>`, with
 * the section's `max` and `windowSeconds` unless given here (docs/guides/rate-limiting.md).
 */
export function RateLimit(options: RateLimitRouteOptions = {}): MethodDecorator & ClassDecorator {
  return limitWith(routeOptions(options));
}

/** Like `@RateLimit()` under a fixed path: routes given the same path share one counter. */
export function RateLimitFor(path: string, options: RateLimitRouteOptions = {}): MethodDecorator & ClassDecorator {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError(`svc: @RateLimitFor(path) needs a path starting with "/", got ${JSON.stringify(path)}`);
  }
  return limitWith({ ...routeOptions(options), path });
}

/** Leaves a route unlimited inside a controller marked `@RateLimit()`. */
export function SkipRateLimit(): MethodDecorator & ClassDecorator {
  return SetMetadata(RATE_LIMIT_ROUTE, Object.freeze({ skip: true } satisfies RateLimitRoute));
}

/**
 * For the library's own endpoints: limited like `@RateLimit()` when a `rateLimit` section is
 * configured, not at all otherwise; `perUser` also counts `user:<id>:path` for the signed-in user
 * (so that spreading guesses over addresses does not help), and `accountFailures` (login) the
 * failed attempts per account and client (docs/guides/rate-limiting.md).
 */
export function AuthRateLimit(options: { perUser?: boolean; accountFailures?: boolean } = {}): MethodDecorator & ClassDecorator {
  const route = { builtIn: true, perUser: options.perUser === true, accountFailures: options.accountFailures === true };
  return route.accountFailures ? applyDecorators(limitWith(route), UseInterceptors(LoginFailuresInterceptor)) : limitWith(route);
}

function limitWith(route: RateLimitRoute): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(RATE_LIMIT_ROUTE, Object.freeze(route)), UseGuards(RateLimitGuard));
}

function routeOptions(options: RateLimitRouteOptions): RateLimitRoute {
  const positive = (name: string, value: unknown) => {
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 1)) {
      throw new TypeError(`svc: @RateLimit({ ${name} }) must be a positive integer, got ${JSON.stringify(value)}`);
    }
  };
  positive('max', options.max);
  positive('windowSeconds', options.windowSeconds);
  if (options.by !== undefined && options.by !== 'ip' && options.by !== 'user') throw new TypeError(`svc: @RateLimit({ by }) must be 'ip' or 'user'`);
  return { max: options.max, windowSeconds: options.windowSeconds, by: options.by };
}
