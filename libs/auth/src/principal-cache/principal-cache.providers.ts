import type { Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthConfigError } from '../config/auth-config.error.js';
import { isRedisUrl } from '../config/option-rules.js';
import { openRedis } from '../redis/owned-redis.js';
import type { InvalidationTransport } from './invalidation-transport.js';
import { LocalInvalidationTransport } from './local-invalidation.transport.js';
import { PostgresInvalidationTransport } from './postgres-invalidation.transport.js';
import { PrincipalCache } from './principal-cache.js';
import { PrincipalCacheListener } from './principal-cache.listener.js';
import { INVALIDATION_TRANSPORT, PRINCIPAL_CACHE } from './principal-cache.tokens.js';
import { UserChanges } from '../users/user-changes.js';
import { PrincipalInvalidations } from './principal-invalidations.js';
import { RedisInvalidationTransport } from './redis-invalidation.transport.js';

/** The principal cache's providers for AuthModule (docs/guides/principal-cache.md), with the `principalCache` section. */
export function principalCacheProviders(): Provider[] {
  return [
    { provide: PRINCIPAL_CACHE, useFactory: (config: AuthConfig, clock: Clock) => new PrincipalCache(config.principalCache, clock), inject: [AUTH_CONFIG, AUTH_CLOCK] },
    { provide: INVALIDATION_TRANSPORT, useFactory: invalidationTransport, inject: [AUTH_CONFIG, getDataSourceToken()] },
    PrincipalInvalidations,
    { provide: UserChanges, useExisting: PrincipalInvalidations },
    PrincipalCacheListener,
  ];
}

/**
 * Without the section (docs/decisions/0001-module-shape.md): no transport and no listener; the
 * resolvers consult a cache that is off (it serves and keeps nothing) and the revocations tell nobody.
 */
export function noPrincipalCacheProviders(): Provider[] {
  return [
    { provide: PRINCIPAL_CACHE, useFactory: (clock: Clock) => new PrincipalCache(undefined, clock), inject: [AUTH_CLOCK] },
    { provide: PrincipalInvalidations, useValue: noInvalidations },
    { provide: UserChanges, useExisting: PrincipalInvalidations },
  ];
}

/** What revocations and user changes call without the cache: nothing to invalidate, nobody to tell. */
const noInvalidations: Pick<PrincipalInvalidations, 'userChanged' | 'familyRevoked'> = {
  userChanged: () => Promise.resolve(),
  familyRevoked: () => Promise.resolve(),
};

/**
 * The transport the section chooses, or its default: Redis when a client is given, else PostgreSQL's
 * own on PostgreSQL. A cache no revocation could reach is refused at startup, naming the option.
 * `redis: { url }` opens svc's own client here; the transport closes it at shutdown.
 */
export async function invalidationTransport(config: AuthConfig, dataSource: DataSource): Promise<InvalidationTransport | null> {
  const section = config.principalCache;
  if (section === undefined) return null;
  const onPostgres = dataSource.options.type === 'postgres';
  const invalidation = section.invalidation ?? (section.redis ? 'redis' : onPostgres ? 'postgres' : undefined);
  switch (invalidation) {
    case 'postgres':
      if (!onPostgres) throw new AuthConfigError('principalCache.invalidation', `is 'postgres' but the database is ${dataSource.options.type}`);
      return new PostgresInvalidationTransport(dataSource, section.channel);
    case 'redis': {
      if (!isRedisUrl(section.redis)) return new RedisInvalidationTransport(section.redis!, section.channel);
      const client = await openRedis('principalCache.redis', section.redis.url);
      return new RedisInvalidationTransport(client, section.channel, client);
    }
    case 'local':
      return new LocalInvalidationTransport();
    default:
      throw new AuthConfigError(
        'principalCache.invalidation',
        `has no way to reach other instances on ${dataSource.options.type}: give principalCache.redis, or 'local' if this instance runs alone on its database`,
      );
  }
}
