import { describe, expect, it } from '@jest/globals';
import { PrincipalCache } from './principal-cache.js';

const USER = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';
const OTHER = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const clock = { now: () => new Date('2026-11-21T10:00:00Z') };
const LATER = Date.parse('2026-11-21T11:00:00Z');

function listening(): PrincipalCache<string> {
  const cache = new PrincipalCache<string>({ maxEntries: 100, ttlSeconds: 60 }, clock);
  cache.resume();
  return cache;
}

describe('PrincipalCache', () => {
  it('drops a fill whose read began before an invalidation (the read may have seen the row before the revocation committed)', () => {
    const cache = listening();
    const ticket = cache.ticket();
    cache.invalidate({ userId: OTHER });
    expect(cache.fill(ticket, 'key', USER, 'stale', LATER)).toBe(false);
    expect(cache.get('key')).toBeUndefined();
    expect(cache.fill(cache.ticket(), 'key', USER, 'fresh', LATER)).toBe(true);
    expect(cache.get('key')).toBe('fresh');
  });

  it('serves and keeps nothing while its channel is down, and comes back empty', () => {
    const cache = listening();
    cache.fill(cache.ticket(), 'key', USER, 'principal', LATER);
    const ticket = cache.ticket();
    cache.suspend();
    expect(cache.get('key')).toBeUndefined();
    expect(cache.fill(cache.ticket(), 'other', USER, 'principal', LATER)).toBe(false);
    cache.resume();
    expect(cache.size).toBe(0);
    expect(cache.fill(ticket, 'key', USER, 'read before the outage', LATER)).toBe(false);
  });

  it('invalidates every key of a user, or one key, and nothing else', () => {
    const cache = listening();
    cache.fill(cache.ticket(), 'a', USER, 'a', LATER);
    cache.fill(cache.ticket(), 'b', USER, 'b', LATER);
    cache.fill(cache.ticket(), 'c', OTHER, 'c', LATER);
    cache.invalidate({ userId: USER });
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, undefined, 'c']);
    cache.invalidate({ key: 'c' });
    expect(cache.size).toBe(0);
  });

  it('never serves past the end the credential has anyway, nor caches what has ended', () => {
    const cache = listening();
    const now = clock.now().getTime();
    expect(cache.fill(cache.ticket(), 'ended', USER, 'x', now)).toBe(false);
    expect(cache.fill(cache.ticket(), 'soon', USER, 'x', now + 1)).toBe(true);
  });

  it('is off without settings: nothing is ever cached', () => {
    const cache = new PrincipalCache<string>(undefined, clock);
    cache.resume();
    expect(cache.fill(cache.ticket(), 'key', USER, 'x', LATER)).toBe(false);
  });
});
