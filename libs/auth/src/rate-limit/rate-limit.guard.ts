import { type CanActivate, type ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { withTimeLimit } from '../async/time-limit.js';
import { AUTH_CLOCK, AUTH_CONFIG, SVC_LOGGER } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import { describeError } from '../errors/describe-error.js';
import { ThrottledReport } from '../errors/throttled-report.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import { validEmailOrNull } from '../users/email.js';
import { clientAddressOf } from '../http/client-address.js';
import { type AccountFailureKeys, AccountKeys } from './account-keys.js';
import { countIfLoginFails } from './login-failures.interceptor.js';
import { clientKeyOfAddress } from './client-key.js';
import { routePathOf } from './route-path.js';
import { RATE_LIMIT_ROUTE, type RateLimitRoute } from './rate-limit.constants.js';
import { type RateLimitCheck, RateLimitStorage } from './rate-limit.storage.js';

type RateLimitSettings = NonNullable<AuthConfig['rateLimit']>;
type Limit = { max: number; windowSeconds: number };

/**
 * Counts each request of a route marked `@RateLimit()`, `@RateLimitFor(path)` or (library
 * endpoints) `@AuthRateLimit()` under `<client>:path`, and on login checks the account's failed
 * attempts from this client (and past the ceiling, from all); refuses it with 429, `Retry-After` and `RATE_LIMITED` beyond the
 * route's `max` per `windowSeconds` (the section's unless the route says otherwise), and tells the
 * client where it stands with the `RateLimit-*` headers (docs/guides/rate-limiting.md). The protected
 * methods are the places to override, as with @nestjs/throttler's `getTracker`.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  /** A backend that answers slower than this is treated as down (`rateLimit.onBackendError`). */
  protected readonly backendTimeoutMs: number = 2000;
  private readonly logger = new Logger(SVC_LOGGER);
  private readonly letThroughReport = new ThrottledReport((line) => this.logger.warn(line), () => this.clock.now().getTime());
  private readonly refusedReport = new ThrottledReport((line) => this.logger.error(line), () => this.clock.now().getTime());
  private readonly routes = new WeakMap<object, Map<object, RateLimitRoute | undefined>>();
  private readonly plans = new WeakMap<RateLimitRoute, RoutePlan>();
  /** A connection's client key (no trusted header): its socket's address, which does not change. */
  private readonly socketKeys = new WeakMap<object, string>();
  private readonly accounts: AccountKeys;

  constructor(
    @Inject(AUTH_CONFIG) protected readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) protected readonly clock: Clock,
    @Inject(RateLimitStorage) protected readonly storage: RateLimitStorage,
    protected readonly reflector: Reflector,
  ) {
    this.accounts = new AccountKeys(config.rateLimit?.accountKey);
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const route = this.routeOf(context);
    if (!route || route.skip) return true;
    const settings = this.config.rateLimit;
    if (!settings) {
      // The library's endpoints are limited only when a rateLimit section is given.
      if (route.builtIn) return true;
      // Fail closed: a route its author asked to limit is never served unlimited.
      throw new Error('svc: @RateLimit() and @RateLimitFor() need the rateLimit section of AuthModule.forRoot');
    }
    // What switchToHttp().getRequest() and getResponse() return, without the three closures that
    // switchToHttp assigns to the context at every call.
    const request = context.getArgByIndex<Request>(0);
    const response = context.getArgByIndex<Response>(1);
    const plan = this.planOf(route, settings);
    const { limit } = plan;
    // A route with its own window counts apart from routes of the same path with the section's.
    const path = plan.windowSuffix === '' ? (route.path ?? this.getPath(request)) : `${route.path ?? this.getPath(request)}${plan.windowSuffix}`;

    const client = this.getTracker(request, route);
    // A missing or unparsable client address is refused, never pooled under "unknown" (docs/guides/rate-limiting.md).
    if (client === null) return this.throwRateLimited(response, limit, { allowed: false, count: limit.max + 1, retryAfterSeconds: limit.windowSeconds }, 'Client address could not be determined');
    const key = plan.keyOf(client, path);
    const userId = route.perUser ? (request as Request & { user?: { id?: unknown } }).user?.id : undefined;
    const keys = typeof userId === 'string' ? [key, `user:${userId}:${path}`] : key;
    // A storage in this process answers at once: no await, no timeout on the request's path.
    const counted = this.count(keys, plan, settings, response);
    const account = route.accountFailures ? this.getAccount(request) : null;
    if (account === null) return counted;
    // The account's failures are looked at only once the address was let through.
    const failures = this.accounts.failuresOf(account, client, path);
    return Promise.resolve(counted).then(() => this.admitAccount(request, response, failures, limit, settings));
  }

  /**
   * Whom the request is counted for (@nestjs/throttler's `getTracker`): the signed-in user on a
   * `by: 'user'` route, else the client address, IPv6 by its /64. Null refuses the request.
   */
  protected getTracker(request: Request, route: RateLimitRoute): string | null {
    if (route.by === 'user') {
      const userId = (request as Request & { user?: { id?: unknown } }).user?.id;
      if (typeof userId === 'string') return `user:${userId}`;
    }
    // Without a trusted header the key is the socket's address, which a connection keeps for its
    // life: worked out once per connection (keep-alive), not at every request.
    const socket = this.config.clientAddress ? undefined : request.socket;
    const known = socket && this.socketKeys.get(socket);
    if (known !== undefined) return known;
    const address = clientAddressOf(request, this.config);
    const key = address === null ? null : clientKeyOfAddress(address);
    if (socket && key !== null) this.socketKeys.set(socket, key);
    return key;
  }

  /** The matched route's path, without the query string (`routePathOf`). */
  protected getPath(request: Request): string {
    return routePathOf(request);
  }

  /**
   * The account of the request: its body's email if that is a valid address, normalised. The body
   * is not validated yet here, so anything else is not counted per account (validation refuses it
   * next), and nothing malformed ever reaches a backend key.
   */
  protected getAccount(request: Request): string | null {
    return validEmailOrNull((request.body as { email?: unknown } | undefined)?.email);
  }

  protected throwRateLimited(response: Response, limit: { max: number }, check: RateLimitCheck, message?: string): never {
    response.setHeader('Retry-After', String(check.retryAfterSeconds));
    setRateLimitHeaders(response, limit.max, check);
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

  /**
   * Counts the keys one after the other, from `next`: the account or user is counted only when the
   * address was let through. Then tells the client where it stands by the counter closest to its
   * limit. An answer given at once (a storage that counts in this process) is taken at once: nothing
   * awaited, no timer set, and one key (the common case) without an array; a promise is awaited
   * (`countAfter`) and the count goes on from the next key.
   */
  private count(keys: string | readonly string[], plan: RoutePlan, settings: RateLimitSettings, response: Response, next = 0, closest?: RateLimitCheck): boolean | Promise<boolean> {
    const { limit } = plan;
    const length = typeof keys === 'string' ? 1 : keys.length;
    for (let index = next; index < length; index++) {
      let answer: RateLimitCheck | Promise<RateLimitCheck> | undefined;
      try {
        answer = this.storage.check(typeof keys === 'string' ? keys : keys[index], limit.windowSeconds, limit.max);
      } catch (error) {
        this.onBackendError(error, settings);
      }
      if (isPromise(answer)) return this.countAfter(answer, keys, index, plan, settings, response, closest);
      if (answer) closest = this.admit(answer, limit, response, closest);
    }
    return this.letThrough(plan, response, closest);
  }

  /** `count` once the key at `index` answered with a promise: awaited within `backendTimeoutMs`, then on from the next key. */
  private async countAfter(answer: Promise<RateLimitCheck>, keys: string | readonly string[], index: number, plan: RoutePlan, settings: RateLimitSettings, response: Response, closest: RateLimitCheck | undefined): Promise<boolean> {
    let check: RateLimitCheck | undefined;
    try {
      check = await withTimeLimit(() => answer, this.backendTimeoutMs, () => new Error(`no answer within ${this.backendTimeoutMs} ms`));
    } catch (error) {
      this.onBackendError(error, settings);
    }
    return this.count(keys, plan, settings, response, index + 1, check ? this.admit(check, plan.limit, response, closest) : closest);
  }

  /**
   * No lockout by strangers (OWASP Authentication Cheat Sheet, "Account Lockout"; ASVS 5.0 V6.3):
   * only this client's own failures for the account refuse it, at `max`; once the account's
   * failures from every client reach `accountCeiling`, a client that has failed for it is refused
   * too, and one that has not never is. Both counters are only looked at here; a failed login
   * counts itself (`LoginFailuresInterceptor`), so a correct password spends nothing.
   */
  private async admitAccount(request: Request, response: Response, keys: AccountFailureKeys, limit: Limit, settings: RateLimitSettings): Promise<true> {
    const ofClient = await this.peek(keys.ofClient, limit.windowSeconds, limit.max, settings);
    if (ofClient && !ofClient.allowed) this.throwRateLimited(response, limit, ofClient);
    if (ofClient && ofClient.count > 0) {
      const ofAccount = await this.peek(keys.ofAccount, limit.windowSeconds, settings.accountCeiling, settings);
      // Refused as at its own limit: the headers tell nothing of the other clients' failures.
      if (ofAccount && !ofAccount.allowed) this.throwRateLimited(response, limit, { ...ofAccount, count: limit.max });
    }
    countIfLoginFails(request, () => this.countFailure(keys, limit, settings));
    return true;
  }

  private async peek(key: string, windowSeconds: number, max: number, settings: RateLimitSettings): Promise<RateLimitCheck | undefined> {
    try {
      return await withTimeLimit(() => this.storage.peek(key, windowSeconds, max), this.backendTimeoutMs, () => new Error(`no answer within ${this.backendTimeoutMs} ms`));
    } catch (error) {
      this.onBackendError(error, settings);
      return undefined;
    }
  }

  private async countFailure(keys: AccountFailureKeys, limit: Limit, settings: RateLimitSettings): Promise<void> {
    try {
      await withTimeLimit(
        () => Promise.all([this.storage.check(keys.ofClient, limit.windowSeconds, limit.max), this.storage.check(keys.ofAccount, limit.windowSeconds, settings.accountCeiling)]),
        this.backendTimeoutMs,
        () => new Error(`no answer within ${this.backendTimeoutMs} ms`),
      );
    } catch (error) {
      this.onBackendError(error, settings);
    }
  }

  /** Refuses past the limit; else the counter closest to its limit so far (the first of equals). */
  private admit(check: RateLimitCheck, limit: Limit, response: Response, closest: RateLimitCheck | undefined): RateLimitCheck {
    if (!check.allowed) this.throwRateLimited(response, limit, check);
    return closest !== undefined && !(check.count > closest.count) ? closest : check;
  }

  private letThrough(plan: RoutePlan, response: Response, closest: RateLimitCheck | undefined): true {
    // The counter closest to its limit is the one the client needs to know about.
    if (closest !== undefined) setRateLimitHeaders(response, plan.limit.max, closest, plan.maxHeader);
    return true;
  }

  /** The route's `@RateLimit` settings, looked up once per handler and controller. */
  private routeOf(context: ExecutionContext): RateLimitRoute | undefined {
    const controller = context.getClass();
    const handler = context.getHandler();
    let routes = this.routes.get(controller);
    if (!routes) this.routes.set(controller, (routes = new Map()));
    let route = routes.get(handler);
    if (route === undefined && !routes.has(handler)) {
      route = this.reflector.getAllAndOverride<RateLimitRoute | undefined>(RATE_LIMIT_ROUTE, [handler, controller]);
      routes.set(handler, route);
    }
    return route;
  }

  /** What a route's requests share: its limit, the key suffix of its own window, its `RateLimit-Limit` value. */
  private planOf(route: RateLimitRoute, settings: RateLimitSettings): RoutePlan {
    const plan = this.plans.get(route);
    if (plan !== undefined && plan.settings === settings) return plan;
    const made = new RoutePlan(route, settings);
    this.plans.set(route, made);
    return made;
  }
}

/** A route's limit under one `rateLimit` section, worked out once instead of at every request. */
class RoutePlan {
  readonly limit: Limit;
  /** `#<n>s` when the route has a window of its own, else ''. */
  readonly windowSuffix: string;
  readonly maxHeader: string;
  private lastClient?: string;
  private lastPath?: string;
  private lastKey = '';

  constructor(
    route: RateLimitRoute,
    readonly settings: RateLimitSettings,
  ) {
    this.limit = Object.freeze({ max: route.max ?? settings.max, windowSeconds: route.windowSeconds ?? settings.windowSeconds });
    this.windowSuffix = this.limit.windowSeconds === settings.windowSeconds ? '' : `#${this.limit.windowSeconds}s`;
    this.maxHeader = String(this.limit.max);
  }

  /** `<client>:<path>`; the last one is kept, as a client's requests tend to come in runs (keep-alive). */
  keyOf(client: string, path: string): string {
    if (client !== this.lastClient || path !== this.lastPath) {
      this.lastClient = client;
      this.lastPath = path;
      this.lastKey = `${client}:${path}`;
    }
    return this.lastKey;
  }
}

/**
 * draft-ietf-httpapi-ratelimit-headers (the three-header form @nestjs/throttler sends): the limit,
 * what is left of it in this window, and the seconds until the window resets.
 */
function setRateLimitHeaders(response: Response, max: number, check: RateLimitCheck, maxHeader = String(max)): void {
  response.setHeader('RateLimit-Limit', maxHeader);
  response.setHeader('RateLimit-Remaining', String(Math.max(0, max - check.count)));
  response.setHeader('RateLimit-Reset', String(check.retryAfterSeconds));
}

/** A promise rather than an answer given at once (told by its `then`, as `await` tells it). */
function isPromise<T>(value: T | Promise<T> | undefined): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}
