import type { Provider } from '@nestjs/common';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { RedisCommands } from '../config/auth-options.js';
import { isRedisUrl } from '../config/option-rules.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { openRedis } from '../redis/owned-redis.js';
import { AccountMessageLimit } from './account-messages.js';
import { MemoryRateLimitStorage } from './memory/memory-rate-limit.storage.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RateLimitStorage } from './rate-limit.storage.js';
import { RedisRateLimitStorage } from './redis/redis-rate-limit.storage.js';
import { TypeOrmRateLimitStorage } from './typeorm/typeorm-rate-limit.storage.js';

/**
 * The limiter's providers for AuthModule: the storage of the configured backend, bound once at
 * startup (docs/guides/rate-limiting.md), the guard, and the per-account message limit of
 * forgot-password. Export `RateLimitStorage` too, so the guard also works on the application's own routes.
 */
export function rateLimitProviders(): Provider[] {
  return [
    { provide: RateLimitStorage, useFactory: rateLimitStorage, inject: [AUTH_CONFIG, AUTH_CLOCK, UnitOfWork] },
    RateLimitGuard,
    AccountMessageLimit,
  ];
}

/** The configured storage; with `rateLimit.redis: { url }`, on a client svc opens here and the storage closes at shutdown. */
async function rateLimitStorage(config: AuthConfig, clock: Clock, unitOfWork: UnitOfWork): Promise<RateLimitStorage> {
  const section = config.rateLimit;
  if (section?.backend !== 'redis' || !isRedisUrl(section.redis)) return createRateLimitStorage(config, clock, unitOfWork);
  const client = await openRedis('rateLimit.redis', section.redis.url);
  return new RedisRateLimitStorage(client, clock, section.redisKeyPrefix, client);
}

/**
 * Without a rateLimit section the memory storage stands idle: no route is limited then. The redis
 * backend here takes a client; `{ url }` goes through `rateLimitProviders`.
 */
export function createRateLimitStorage(config: AuthConfig, clock: Clock, unitOfWork: UnitOfWork): RateLimitStorage {
  switch (config.rateLimit?.backend ?? 'memory') {
    case 'database':
      return new TypeOrmRateLimitStorage(unitOfWork, clock);
    case 'redis':
      return new RedisRateLimitStorage(config.rateLimit!.redis as RedisCommands, clock, config.rateLimit!.redisKeyPrefix);
    default:
      return new MemoryRateLimitStorage(clock, { maxKeys: config.rateLimit?.memoryMaxKeys });
  }
}
