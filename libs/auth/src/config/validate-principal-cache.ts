import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { PrincipalCacheOptions } from './auth-options.js';
import { int, isRedisUrl, oneOf, redisUrl } from './option-rules.js';

/** A channel both PostgreSQL (an identifier of `LISTEN`) and Redis take as it is. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The `principalCache` section (docs/guides/principal-cache.md): absent, the cache is off. Whether the
 * chosen invalidation can work (PostgreSQL under 'postgres') is checked at startup, where the data
 * source is known.
 */
export function validatePrincipalCache(section: PrincipalCacheOptions | undefined): AuthConfig['principalCache'] {
  if (section === undefined) return undefined;
  if (section === null || typeof section !== 'object' || Array.isArray(section)) throw new AuthConfigError('principalCache', 'must be an object', section);
  const invalidation = section.invalidation === undefined ? undefined : oneOf('principalCache.invalidation', section.invalidation, 'postgres', ['postgres', 'redis', 'local'] as const);
  const redis = isRedisUrl(section.redis) ? redisUrl('principalCache.redis', section.redis) : section.redis;
  if (redis !== undefined && !isRedisUrl(redis) && (typeof redis?.publish !== 'function' || typeof redis.duplicate !== 'function')) {
    throw new AuthConfigError('principalCache.redis', 'must be an ioredis client (publish and duplicate) or { url } (a client svc opens and closes)');
  }
  if (invalidation === 'redis' && redis === undefined) throw new AuthConfigError('principalCache.redis', "is required with invalidation 'redis'");
  if (invalidation !== undefined && invalidation !== 'redis' && redis !== undefined) {
    throw new AuthConfigError('principalCache.redis', `is given but invalidation is '${invalidation}': it would not take effect`);
  }
  const channel = section.channel ?? 'svc_principal_cache';
  if (typeof channel !== 'string' || !CHANNEL.test(channel)) throw new AuthConfigError('principalCache.channel', 'must be 1 to 63 lowercase letters, digits or underscores, not starting with a digit', channel);
  return {
    maxEntries: int('principalCache.maxEntries', section.maxEntries, 10_000, 100, 1_000_000),
    ttlSeconds: int('principalCache.ttlSeconds', section.ttlSeconds, 60, 1, 3600),
    invalidation,
    redis,
    channel,
  };
}
