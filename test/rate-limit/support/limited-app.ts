import type { INestApplication, LoggerService, Provider, Type } from '@nestjs/common';
import type { Server } from 'node:http';
import { type RateLimitOptions, RateLimitStorage } from '#svc/auth';
import { createAuthTestApp, type TestClock } from '#svc/auth/testing';

export interface LimitedAppOptions {
  storage: RateLimitStorage;
  clock: TestClock;
  /** The `rateLimit` section of the module's options. */
  rateLimit: RateLimitOptions;
  controllers: Type[];
  providers?: Provider[];
  logger?: LoggerService | false;
}

/**
 * The application's limited routes beside AuthModule, as an application tests them (svc/testing,
 * on in-memory SQLite), with the limiter's storage replaced by the one under test.
 */
export async function createLimitedApp(options: LimitedAppOptions): Promise<{ app: INestApplication; server: Server }> {
  const t = await createAuthTestApp({
    clock: options.clock,
    // No mailer here: the app says it sends no reset mail (docs/guides/application.md#5-observers).
    options: { rateLimit: options.rateLimit, password: { sendsResetMail: false } },
    controllers: options.controllers,
    providers: options.providers ?? [],
    overrides: [{ provide: RateLimitStorage, useValue: options.storage }],
    logger: options.logger ?? false,
  });
  return { app: t.app, server: t.server };
}
