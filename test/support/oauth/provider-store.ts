import type { Adapter, AdapterPayload } from 'oidc-provider';

/** The models oidc-provider revokes by grant (the Grant itself it destroys by id). */
const GRANT_BOUND_MODELS = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

interface Entry {
  payload: AdapterPayload;
  expiresAt?: number;
}

/**
 * What oidc-provider stores (sessions, interactions, grants, codes, tokens), owned by one harness
 * and kept across its restarts, so that a key rotation or a stop/start does not log the user out
 * or void codes already issued, as a provider with a database would behave.
 */
export class ProviderStore {
  private readonly entries = new Map<string, Entry>();
  private readonly sessionIdByUid = new Map<string, string>();
  private readonly keysByGrant = new Map<string, Set<string>>();

  /** The adapter class oidc-provider instantiates once per model. */
  adapter(): new (model: string) => Adapter {
    const store = this;
    return class StoreAdapter implements Adapter {
      constructor(private readonly model: string) {}
      private key(id: string) {
        return `${this.model}:${id}`;
      }
      async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
        store.put(this.key(id), payload, expiresIn, GRANT_BOUND_MODELS.has(this.model) ? payload.grantId : undefined);
        if (this.model === 'Session' && payload.uid) store.sessionIdByUid.set(payload.uid, id);
      }
      async find(id: string) {
        return store.get(this.key(id));
      }
      async findByUid(uid: string) {
        const id = store.sessionIdByUid.get(uid);
        return id === undefined ? undefined : store.get(this.key(id));
      }
      async findByUserCode() {
        return undefined; // the device flow is not enabled
      }
      async consume(id: string) {
        const payload = store.get(this.key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      }
      async destroy(id: string) {
        store.entries.delete(this.key(id));
      }
      async revokeByGrantId(grantId: string) {
        // RFC 6749 §4.1.2: a code used twice revokes the tokens issued from it.
        const keys = store.keysByGrant.get(grantId) ?? new Set<string>();
        for (const key of keys) {
          if (!key.startsWith(`${this.model}:`)) continue;
          store.entries.delete(key);
          keys.delete(key);
        }
      }
    };
  }

  private put(key: string, payload: AdapterPayload, expiresIn: number | undefined, grantId: string | undefined): void {
    this.entries.set(key, { payload, expiresAt: expiresIn === undefined ? undefined : Date.now() + expiresIn * 1000 });
    if (grantId) {
      let keys = this.keysByGrant.get(grantId);
      if (!keys) this.keysByGrant.set(grantId, (keys = new Set()));
      keys.add(key);
    }
  }

  private get(key: string): AdapterPayload | undefined {
    const entry = this.entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry?.payload;
  }
}
