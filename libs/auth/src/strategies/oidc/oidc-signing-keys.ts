import * as client from 'openid-client';
import type { Clock } from '../../clock.js';

type JwksCache = NonNullable<ReturnType<typeof client.getJwksCache>>;

/** At most one JWKS refetch for an unknown `kid` per this interval (keys rotate rarely; tokens with random kids are cheap). */
export const UNKNOWN_KID_REFETCH_INTERVAL_MS = 60_000;
/** openid-client refetches for an unknown `kid` only when its copy is this old (oauth4webapi). */
const OPENID_CLIENT_REFETCH_AGE_SECONDS = 60;

/**
 * The provider's signing keys (its JWKS), kept across logins. openid-client verifies every id_token
 * against them and fetches them itself; this only decides when it may fetch them again. Left alone,
 * it refetches for an unknown `kid` only once its copy is 60 s old, so a login right after a key
 * rotation would fail. Here the copy handed to each login is marked old enough for that refetch,
 * unless one already happened in the last UNKNOWN_KID_REFETCH_INTERVAL_MS (measured with the
 * injected clock): a rotation is picked up at once, and a flood of unknown `kid`s costs the provider
 * one JWKS request a minute.
 */
export class OidcSigningKeys {
  private copy?: JwksCache;
  private lastUnknownKidRefetch = Number.NEGATIVE_INFINITY;

  constructor(private readonly clock: Clock) {}

  /** Runs `work` with a Configuration holding the kept keys, and keeps what openid-client fetched meanwhile. */
  async use<T>(config: client.Configuration, work: () => Promise<T>): Promise<T> {
    const now = this.clock.now().getTime();
    const refetchAllowed = now - this.lastUnknownKidRefetch >= UNKNOWN_KID_REFETCH_INTERVAL_MS;
    const handed = this.copy && {
      ...this.copy,
      uat: refetchAllowed ? Math.min(this.copy.uat, Math.floor(Date.now() / 1000) - OPENID_CLIENT_REFETCH_AGE_SECONDS) : this.copy.uat,
    };
    if (handed) client.setJwksCache(config, handed);
    try {
      return await work();
    } finally {
      const after = client.getJwksCache(config);
      if (after && after.uat !== handed?.uat) {
        // A fetch happened: the first one, an expired copy (openid-client refreshes after 300 s), or an unknown kid.
        if (handed && handed.uat !== this.copy!.uat) this.lastUnknownKidRefetch = now;
        this.copy = after;
      }
    }
  }
}
