import type { INestApplication, LoggerService, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Server } from 'node:http';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Clock } from '../config/clock.js';
import { RateLimitStorage } from './rate-limit.storage.js';

// Support of the guard's specs (not built into the package: tsconfig.build.json leaves out *.spec-support.ts).

/** 2026-11-21T10:00:00Z: a multiple of every window length the specs use (1 s .. 1 h), where their clocks start. */
export const WINDOW_ALIGNED_EPOCH_MS = Date.UTC(2026, 10, 21, 10, 0, 0);

export type RateLimitSettings = NonNullable<AuthConfig['rateLimit']>;

export interface LimitedAppOptions {
  storage: RateLimitStorage;
  clock: Clock;
  /** The validated `rateLimit` section; undefined = not configured. `trustedIpHeader` is the shorthand for one trusted proxy. */
  rateLimit: (Partial<RateLimitSettings> & { trustedIpHeader?: string }) | undefined;
  controllers: Type[];
  logger?: LoggerService | false;
}

/**
 * A tiny Nest application holding only the limiter: the guard's dependencies (AUTH_CONFIG,
 * AUTH_CLOCK, RateLimitStorage) are provided by hand, without the rest of AuthModule.
 */
export async function createLimitedApp(options: LimitedAppOptions): Promise<{ app: INestApplication; server: Server }> {
  const { trustedIpHeader, ...section } = options.rateLimit ?? {};
  const max = section.max ?? 10;
  const rateLimit = options.rateLimit && { windowSeconds: 60, max, accountCeiling: 10 * max, backend: 'memory', onBackendError: 'deny', ...section };
  const clientAddress = trustedIpHeader === undefined ? undefined : { trustProxy: 1, header: trustedIpHeader };
  const config = { rateLimit, clientAddress } as unknown as AuthConfig;
  const moduleRef = await Test.createTestingModule({
    controllers: options.controllers,
    providers: [
      { provide: AUTH_CONFIG, useValue: config },
      { provide: AUTH_CLOCK, useValue: options.clock },
      { provide: RateLimitStorage, useValue: options.storage },
    ],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: options.logger ?? false });
  await app.init();
  return { app, server: app.getHttpServer() as Server };
}
