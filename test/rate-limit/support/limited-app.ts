import type { INestApplication, LoggerService, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Server } from 'node:http';
import { AUTH_CLOCK, AUTH_CONFIG, type AuthConfig, type Clock, RateLimitStorage } from '#svc/auth';

export type RateLimitSettings = NonNullable<AuthConfig['rateLimit']>;

export interface LimitedAppOptions {
  storage: RateLimitStorage;
  clock: Clock;
  /** The validated `rateLimit` section; undefined = not configured. `trustedIpHeader` is the shorthand for one trusted proxy. */
  rateLimit: (Partial<RateLimitSettings> & { trustedIpHeader?: string }) | undefined;
  controllers: Type[];
  providers?: { provide: unknown; useValue: unknown }[];
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
      ...((options.providers ?? []) as never[]),
    ],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: options.logger ?? false });
  await app.init();
  return { app, server: app.getHttpServer() as Server };
}
