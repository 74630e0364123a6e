/** Metadata key of the rate limit a route asked for. */
export const RATE_LIMIT_ROUTE = 'svc:rate-limit-route';

/** What a route's decorator asked the `RateLimitGuard` for. */
export interface RateLimitRoute {
  /** Fixed path of the key (`@RateLimitFor`); else the route's own path. */
  path?: string;
  /** Requests a client may make in a window on this route. @default rateLimit.max */
  max?: number;
  /** @default rateLimit.windowSeconds */
  windowSeconds?: number;
  /** Whom to count: the client address, or the signed-in user (the address when there is none). @default 'ip' */
  by?: 'ip' | 'user';
  /**
   * Login: refuse a client that has failed `max` times for the body's account, or that has failed
   * for it at all once the account's failures from every client reach `accountCeiling`; count the
   * failures only (`LoginFailuresInterceptor`).
   */
  accountFailures?: boolean;
  /** Also count the request under `user:<id>:path` for the signed-in user (change-password). */
  perUser?: boolean;
  /** A library endpoint: limited only when a `rateLimit` section is configured. */
  builtIn?: boolean;
  /** `@SkipRateLimit()`: not limited, whatever the controller says. */
  skip?: boolean;
}
