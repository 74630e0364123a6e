/** What a backend answers for one counted request. */
export interface RateLimitCheck {
  /** True while the key's count in the current window is at most `max`. */
  allowed: boolean;
  /** Requests counted for the key in the current window, this one included. */
  count: number;
  /** Whole seconds until the current window ends (at least 1): the `Retry-After` of a refusal. */
  retryAfterSeconds: number;
}

/**
 * The storage contract of the rate limiter (README, "Rate limiting"): `check` counts one
 * request for `key` in the current fixed window of `windowSeconds` and says whether it is within
 * `max`. It is atomic: N concurrent checks against a max of M allow exactly min(N, M), and the
 * count is stored before the handler runs, so a later failure of the request never undoes it.
 */
export interface RateLimitStorage {
  check(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck>;
  /** Resolves when the backend answers (health checks); a backend without a server has nothing to ask. */
  ping?(): Promise<void>;
  /** True when it counts in this process and so cannot hang: the limiter then sets no timeout on it. */
  readonly inProcess?: boolean;
}

/** Injection token of the `RateLimitStorage` the limiter is bound to. */
export const RateLimitStorage = Symbol('svc:RateLimitStorage');
