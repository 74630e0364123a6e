/** What a backend answers for one counted request, or for a look at a key (`peek`). */
export interface RateLimitCheck {
  /** `check`: the key's count in the current window is at most `max`. `peek`: one more would still be. */
  allowed: boolean;
  /** Requests counted for the key in the current window (by `check`, this one included). */
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
  /**
   * The key's count in the current window, counting nothing: `allowed` while it is below `max`.
   * The limiter checks the per-account keys of a login this way before the password is checked,
   * and `check`s them only when the login has failed (README, "Rate limiting: windows and backends").
   */
  peek(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck>;
  /** Resolves when the backend answers (health checks); a backend without a server has nothing to ask. */
  ping?(): Promise<void>;
  /**
   * For a storage that counts in this process: the same check, answered at once. The limiter then
   * counts without awaiting, and sets no timeout (it cannot hang).
   */
  checkNow?(key: string, windowSeconds: number, max: number): RateLimitCheck;
}

/** Injection token of the `RateLimitStorage` the limiter is bound to. */
export const RateLimitStorage = Symbol('svc:RateLimitStorage');
