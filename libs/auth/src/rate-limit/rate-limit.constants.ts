/** Metadata key of the rate limit a route asked for. */
export const RATE_LIMIT_ROUTE = 'svc:rate-limit-route';

/** What a route's decorator asked the `RateLimitGuard` for. */
export interface RateLimitRoute {
  /** Fixed path of the key (`@RateLimitFor`); else the route's own path. */
  path?: string;
  /** Also count the request under `account:<normalised email>:path` (login, forgot-password). */
  perAccount?: boolean;
  /** A library endpoint: limited only when a `rateLimit` section is configured. */
  builtIn?: boolean;
}
