import * as client from 'openid-client';
import type { Clock } from '../config/clock.js';

type JwksCache = NonNullable<ReturnType<typeof client.getJwksCache>>;

/** At most one JWKS refetch for an unknown `kid` per this interval (keys rotate rarely; tokens with random kids are cheap). */
export const UNKNOWN_KID_REFETCH_INTERVAL_MS = 60_000;
/** openid-client refetches for an unknown `kid` only when its copy is this old (oauth4webapi). */
const OPENID_CLIENT_REFETCH_AGE_SECONDS = 60;

/**
 * The provider's signing keys (its JWKS), kept across logins. openid-client verifies every id_token
 * against them and fetches them itself; this only decides when it may fetch them again. Left alone,
 * it refetches for an unknown `kid` only once its copy is 60 s old, so a login right after a key
 * rotation would fail. Here one login at a time is handed a copy marked old enough for that
 * refetch, unless one happened in the last UNKNOWN_KID_REFETCH_INTERVAL_MS (injected clock); the
 * others get the copy marked fresh, so they cannot refetch. A rotation is picked up at once, and a
 * flood of unknown `kid`s, concurrent or not, costs the provider one JWKS request a minute.
 * (openid-client compares `uat` with the system clock, hence `Date.now()` for it.)
 */
export class OidcSigningKeys {
  private copy?: JwksCache;
  private lastRefetch = Number.NEGATIVE_INFINITY;
  private refetchInFlight = false;

  constructor(private readonly clock: Clock) {}

  /** Runs `work` with a Configuration holding the kept keys, and keeps what openid-client fetched meanwhile. */
  async use<T>(config: client.Configuration, work: () => Promise<T>): Promise<T> {
    const now = this.clock.now().getTime();
    const nowSeconds = Math.floor(Date.now() / 1000);
    const mayRefetch = this.copy !== undefined && !this.refetchInFlight && now - this.lastRefetch >= UNKNOWN_KID_REFETCH_INTERVAL_MS;
    if (mayRefetch) this.refetchInFlight = true;
    const handed = this.copy && { ...this.copy, uat: mayRefetch ? Math.min(this.copy.uat, nowSeconds - OPENID_CLIENT_REFETCH_AGE_SECONDS) : nowSeconds };
    if (handed) client.setJwksCache(config, handed);
    try {
      return await work();
    } finally {
      const after = client.getJwksCache(config);
      if (after && after.uat !== handed?.uat) {
        // A fetch happened: the first one, or the one this login was allowed (unknown kid or an expired copy).
        if (mayRefetch) this.lastRefetch = now;
        this.copy = after;
      }
      if (mayRefetch) this.refetchInFlight = false;
    }
  }
}
