import { describe, expect, it } from '@jest/globals';
import { AuthConfigError } from './auth-config.error.js';
import type { PrincipalCacheOptions, RedisPubSubClient } from './auth-options.js';
import { validatePrincipalCache } from './validate-principal-cache.js';

const redis = { publish: async () => 0, duplicate: () => ({}) } as unknown as RedisPubSubClient;

describe('validatePrincipalCache', () => {
  it('is off without the section, and defaults every option with it', () => {
    expect(validatePrincipalCache(undefined)).toBeUndefined();
    expect(validatePrincipalCache({})).toEqual({ maxEntries: 10_000, ttlSeconds: 60, invalidation: undefined, redis: undefined, channel: 'svc_principal_cache' });
  });

  it('takes { url } for a Redis client svc opens and closes (with the duplicate it subscribes on)', () => {
    expect(validatePrincipalCache({ redis: { url: 'redis://cache.example:6379' } })?.redis).toEqual({ url: 'redis://cache.example:6379' });
  });

  it.each<[PrincipalCacheOptions, string]>([
    [{ maxEntries: 99 }, 'principalCache.maxEntries must be between 100 and 1000000'],
    [{ ttlSeconds: 0 }, 'principalCache.ttlSeconds must be between 1 and 3600'],
    [{ invalidation: 'kafka' as never }, 'principalCache.invalidation must be one of postgres, redis, local'],
    [{ invalidation: 'redis' }, "principalCache.redis is required with invalidation 'redis'"],
    [{ invalidation: 'postgres', redis }, "principalCache.redis is given but invalidation is 'postgres': it would not take effect"],
    [{ redis: {} as never }, 'principalCache.redis must be an ioredis client (publish and duplicate)'],
    [{ channel: 'Svc-Cache' }, 'principalCache.channel must be 1 to 63 lowercase letters, digits or underscores, not starting with a digit'],
    [{ redis: { url: 'http://cache.example' } }, 'principalCache.redis.url must be a redis:// or rediss:// URL'],
    [{ invalidation: 'local', redis: { url: 'redis://cache.example' } }, "principalCache.redis is given but invalidation is 'local': it would not take effect"],
  ])('refuses %j', (section, message) => {
    expect(() => validatePrincipalCache(section)).toThrow(AuthConfigError);
    expect(() => validatePrincipalCache(section)).toThrow(message);
  });
});
