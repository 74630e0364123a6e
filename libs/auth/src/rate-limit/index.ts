export { clientKeyOfAddress } from './client-key.js';
export { MemoryRateLimitStorage } from './memory/memory-rate-limit.storage.js';
export { AuthRateLimit, RateLimit, RateLimitFor, SkipRateLimit } from './rate-limit.decorators.js';
export { RateLimitGuard } from './rate-limit.guard.js';
export { createRateLimitStorage, rateLimitProviders } from './rate-limit.providers.js';
export { type RateLimitCheck, RateLimitStorage } from './rate-limit.storage.js';
export { RedisRateLimitStorage } from './redis/redis-rate-limit.storage.js';
export { TypeOrmRateLimitStorage } from './typeorm/typeorm-rate-limit.storage.js';
