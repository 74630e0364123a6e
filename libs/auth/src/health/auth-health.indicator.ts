import { Inject, Injectable } from '@nestjs/common';
import { type HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { RateLimitStorage } from '../rate-limit/rate-limit.storage.js';

/** A dependency slower than this counts as down: a health check must answer quickly itself. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * A health indicator for @nestjs/terminus: the database through the unit of work (`SELECT 1`, in
 * turn with the library's own work on SQLite) and, with the Redis rate limiter, Redis (`PING`).
 * Down when either does not answer within 2 s; the result says which.
 */
@Injectable()
export class AuthHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    private readonly unitOfWork: UnitOfWork,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(RateLimitStorage) private readonly rateLimitStorage: RateLimitStorage,
  ) {}

  async isHealthy(key = 'svc'): Promise<HealthIndicatorResult> {
    const session = this.health.check(key);
    const status: Record<string, 'up' | 'down'> = { database: await probe(() => this.unitOfWork.autocommit((manager) => manager.query('SELECT 1'))) };
    if (this.config.rateLimit?.backend === 'redis' && this.rateLimitStorage.ping) status.redis = await probe(() => this.rateLimitStorage.ping!());
    return Object.values(status).every((value) => value === 'up') ? session.up(status) : session.down(status);
  }
}

async function probe(call: () => Promise<unknown>): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([call(), timeout]);
    return 'up';
  } catch {
    // The unit of work and the limiter log their outages; a health answer names no internals.
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}
