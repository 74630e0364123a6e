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
 * The storage contract of the rate limiter (docs/guides/rate-limiting.md): `check` counts one
 * request for `key` in the current fixed window of `windowSeconds` and says whether it is within
 * `max`. It is atomic: N concurrent checks against a max of M allow exactly min(N, M), and the
 * count is stored before the handler runs, so a later failure of the request never undoes it.
 */
export interface RateLimitStorage {
  /**
   * The answer, or a promise of it. A backend that counts in this process (memory) answers at
   * once: the limiter then awaits nothing and sets no timer, as such a backend cannot hang. A
   * promise (a server backend, or any `async check`) is given 2 s to settle, after which the backend
   * counts as down (`rateLimit.onBackendError`); so is a `check` that throws.
   */
  check(key: string, windowSeconds: number, max: number): RateLimitCheck | Promise<RateLimitCheck>;
  /**
   * The key's count in the current window, counting nothing: `allowed` while it is below `max`.
   * The limiter checks the per-account keys of a login this way before the password is checked,
   * and `check`s them only when the login has failed (docs/decisions/0016-rate-limiting-windows-and-backends.md).
   */
  peek(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck>;
  /** Resolves when the backend answers (health checks); a backend without a server has nothing to ask. */
  ping?(): Promise<void>;
}

/** Injection token of the `RateLimitStorage` the limiter is bound to. */
export const RateLimitStorage = Symbol('svc:RateLimitStorage');
