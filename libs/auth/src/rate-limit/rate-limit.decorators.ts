import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { RATE_LIMIT_ROUTE, type RateLimitRoute } from './rate-limit.constants.js';
import { RateLimitGuard } from './rate-limit.guard.js';

/** Limits a route (or every route of a controller) per client, keyed `ip:<route path>` (contract §5). */
export function RateLimit(): MethodDecorator & ClassDecorator {
  return limitWith({});
}

/**
 * Limits a route per client under a fixed path, keyed `ip:<path>`: routes given the same path
 * share one counter.
 */
export function RateLimitFor(path: string): MethodDecorator & ClassDecorator {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError(`svc: @RateLimitFor(path) needs a path starting with "/", got ${JSON.stringify(path)}`);
  }
  return limitWith({ path });
}

/**
 * For the library's own endpoints: limited like `@RateLimit()` when a `rateLimit` section is
 * configured, not at all otherwise; `perAccount` also counts `account:<email>:path`.
 */
export function AuthRateLimit(options: { perAccount?: boolean } = {}): MethodDecorator & ClassDecorator {
  return limitWith({ builtIn: true, perAccount: options.perAccount === true });
}

function limitWith(route: RateLimitRoute): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(RATE_LIMIT_ROUTE, Object.freeze(route)), UseGuards(RateLimitGuard));
}
