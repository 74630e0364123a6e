import { type CanActivate, type ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AUTH_CLOCK, AUTH_CONFIG, SVC_LOGGER } from '../auth.constants.js';
import type { Clock } from '../clock.js';
import { describeError } from '../errors/describe-error.js';
import { ThrottledReport } from '../errors/throttled-report.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import { validEmailOrNull } from '../users/email.js';
import { clientKeyOf } from './client-key.js';
import { RATE_LIMIT_ROUTE, type RateLimitRoute } from './rate-limit.constants.js';
import { type RateLimitCheck, RateLimitStorage } from './rate-limit.storage.js';

type RateLimitSettings = NonNullable<AuthConfig['rateLimit']>;

/**
 * Counts each request of a route marked `@RateLimit()`, `@RateLimitFor(path)` or (library
 * endpoints) `@AuthRateLimit()` under `ip:path`, and for login and forgot-password also under
 * `account:<email>:path`; refuses it with 429, `Retry-After` and `RATE_LIMITED` beyond
 * `rateLimit.max` per `rateLimit.windowSeconds` (contract §5). The protected methods are the
 * places to override (like @nestjs/throttler's `getTracker`).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  /** A backend that answers slower than this is treated as down (`rateLimit.onBackendError`). */
  protected readonly backendTimeoutMs: number = 2000;
  private readonly logger = new Logger(SVC_LOGGER);
  private readonly letThroughReport = new ThrottledReport((line) => this.logger.warn(line), () => this.clock.now().getTime());
  private readonly refusedReport = new ThrottledReport((line) => this.logger.error(line), () => this.clock.now().getTime());

  constructor(
    @Inject(AUTH_CONFIG) protected readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) protected readonly clock: Clock,
    @Inject(RateLimitStorage) protected readonly storage: RateLimitStorage,
    protected readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.reflector.getAllAndOverride<RateLimitRoute | undefined>(RATE_LIMIT_ROUTE, [context.getHandler(), context.getClass()]);
    if (!route) return true;
    const settings = this.config.rateLimit;
    if (!settings) {
      // Contract §5: the library's endpoints are limited only when a rateLimit section is given.
      if (route.builtIn) return true;
      // Fail closed: a route its author asked to limit is never served unlimited.
      throw new Error('svc: @RateLimit() and @RateLimitFor() need the rateLimit section of AuthModule.forRoot');
    }
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const path = route.path ?? this.getPath(request);

    const client = this.getTracker(request, settings);
    // Contract §5: a missing or unparsable client address is refused, never pooled under "unknown".
    if (client === null) this.throwRateLimited(response, settings.windowSeconds, 'Client address could not be determined');
    await this.count(`${client}:${path}`, settings, response);

    if (route.perAccount) {
      const account = this.getAccount(request);
      if (account !== null) await this.count(`account:${account}:${path}`, settings, response);
    }
    return true;
  }

  /** The client's key: its address, IPv6 by /64 (see `clientKeyOf`). Null refuses the request. */
  protected getTracker(request: Request, settings: RateLimitSettings): string | null {
    return clientKeyOf(request, settings.trustedIpHeader);
  }

  /**
   * The matched route's path, without the query string: `/auth/LOGIN/`, `/auth/login?x=1` and
   * `/auth/login` share one counter, as do `/items/1` and `/items/2` of `/items/:id`.
   */
  protected getPath(request: Request): string {
    const routePath = (request.route as { path?: unknown } | undefined)?.path;
    return typeof routePath === 'string' ? `${request.baseUrl ?? ''}${routePath}` : request.path;
  }

  /**
   * The account of the request: its body's email if that is a valid address, normalised. The body
   * is not validated yet here, so anything else is not counted per account (validation refuses it
   * next), and nothing malformed ever reaches a backend key.
   */
  protected getAccount(request: Request): string | null {
    return validEmailOrNull((request.body as { email?: unknown } | undefined)?.email);
  }

  protected throwRateLimited(response: Response, retryAfterSeconds: number, message?: string): never {
    response.setHeader('Retry-After', String(retryAfterSeconds));
    throw new AuthError('RATE_LIMITED', { message });
  }

  /** `rateLimit.onBackendError`: 'deny' (default) refuses with 503, 'allow' lets the request through with a warning. */
  protected onBackendError(error: unknown, settings: RateLimitSettings): void {
    if (settings.onBackendError === 'allow') {
      this.letThroughReport.occurred(`rate-limit backend unavailable, request let through (rateLimit.onBackendError = 'allow'): ${describeError(error)}`);
      return;
    }
    this.refusedReport.occurred(`rate-limit backend unavailable, request refused (rateLimit.onBackendError = 'deny'): ${describeError(error)}`);
    throw new AuthError('SERVICE_UNAVAILABLE', { cause: error });
  }

  private async count(key: string, settings: RateLimitSettings, response: Response): Promise<void> {
    let result: RateLimitCheck;
    try {
      result = await this.withTimeout(this.storage.check(key, settings.windowSeconds, settings.max));
    } catch (error) {
      return this.onBackendError(error, settings);
    }
    if (!result.allowed) this.throwRateLimited(response, result.retryAfterSeconds);
  }

  private async withTimeout<T>(pending: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.backendTimeoutMs} ms`)), this.backendTimeoutMs);
    });
    try {
      return await Promise.race([pending, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
