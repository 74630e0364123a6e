import type { Clock } from '../config/clock.js';
import type { Invalidation } from './invalidation-message.js';

interface Entry<V> {
  userId: string;
  value: V;
  /** Epoch milliseconds: past it the entry is never served. */
  validUntil: number;
}

/** Taken before the database read whose result may fill the cache; a fill with an outdated ticket is dropped. */
export type FillTicket = number;

export interface PrincipalCacheSettings {
  readonly maxEntries: number;
  readonly ttlSeconds: number;
}

/**
 * The principals of recently resolved credentials, by credential key (docs/guides/principal-cache.md):
 * bounded (least recently used out first), each entry until the earliest of its TTL and the end
 * its credential has anyway. Serves nothing until its invalidation channel listens, nor while it is
 * down (`suspend`): a revocation it cannot hear about must never leave a stale principal behind.
 *
 * A read of the database races a revocation: the read may have seen the row just before the
 * revocation's commit and arrive after its invalidation. Every invalidation, and every loss or
 * return of the channel, moves `generation` on; a fill whose ticket was taken before is dropped.
 */
export class PrincipalCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly keysOfUser = new Map<string, Set<string>>();
  private generation = 0;
  private listening = false;

  /** `settings` undefined: the cache is off, and stays empty. */
  constructor(
    private readonly settings: PrincipalCacheSettings | undefined,
    private readonly clock: Clock,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The principal of `key`, if cached, still valid and the channel is listening. */
  get(key: string): V | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.validUntil <= this.clock.now().getTime()) {
      this.remove(key, entry);
      return undefined;
    }
    // Most recently used last: the Map's order is the eviction order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  ticket(): FillTicket {
    return this.generation;
  }

  /** Caches what a read taken with `ticket` resolved, until `endsAt` (epoch ms) or the TTL, whichever is first; true when it did. */
  fill(ticket: FillTicket, key: string, userId: string, value: V, endsAt: number): boolean {
    if (this.settings === undefined || !this.listening || ticket !== this.generation) return false;
    const now = this.clock.now().getTime();
    const validUntil = Math.min(endsAt, now + this.settings.ttlSeconds * 1000);
    if (validUntil <= now) return false;
    const previous = this.entries.get(key);
    if (previous !== undefined) this.remove(key, previous);
    this.entries.set(key, { userId, value, validUntil });
    let keys = this.keysOfUser.get(userId);
    if (keys === undefined) this.keysOfUser.set(userId, (keys = new Set()));
    keys.add(key);
    while (this.entries.size > this.settings.maxEntries) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry<V>];
      this.remove(oldestKey, oldest);
    }
    return true;
  }

  /** A revocation or a change: every principal of the user, or the one of the credential key, goes. */
  invalidate(invalidation: Invalidation): void {
    this.generation++;
    if ('userId' in invalidation) {
      for (const key of this.keysOfUser.get(invalidation.userId) ?? []) this.remove(key, this.entries.get(key)!);
    } else {
      const entry = this.entries.get(invalidation.key);
      if (entry !== undefined) this.remove(invalidation.key, entry);
    }
  }

  /** The channel is down: nothing is served or cached until `resume` (fail closed). */
  suspend(): void {
    this.listening = false;
    this.clear();
  }

  /** The channel listens (again): start from empty, as anything may have been revoked meanwhile. */
  resume(): void {
    this.clear();
    this.listening = this.settings !== undefined;
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
    this.keysOfUser.clear();
  }

  private remove(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    const keys = this.keysOfUser.get(entry.userId);
    keys?.delete(key);
    if (keys?.size === 0) this.keysOfUser.delete(entry.userId);
  }
}
