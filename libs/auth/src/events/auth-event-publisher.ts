import { Inject, Injectable, Logger, type OnModuleInit, Optional } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { Request } from 'express';
import { AUTH_CONFIG, SVC_LOGGER } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { describeError } from '../errors/describe-error.js';
import { AfterResponse } from './after-response.js';
import type { AuthEventName, AuthEventPayloads } from './auth-events.js';

/** Payload fields masked in an observer's crash message. */
const SECRET_FIELDS = ['token', 'link', 'providerAccessToken', 'providerRefreshToken'];

/**
 * Delivers events to observers after the response has been sent (docs/guides/application.md). Each observer
 * runs on its own: a crash is logged to `svc` and changes nothing else. The delivery lasts until
 * every observer's promise has settled, at most `hookTimeoutSeconds`, so that shutdown (and a
 * test's drain) waits for a mail being sent but never for an observer that hangs.
 */
@Injectable()
export class AuthEventPublisher implements OnModuleInit {
  private readonly logger = new Logger(SVC_LOGGER);

  constructor(
    private readonly afterResponse: AfterResponse,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Optional() private readonly emitter?: EventEmitter2,
  ) {}

  /** Without an emitter the reset mails would silently never go out: refuse to start instead. */
  onModuleInit(): void {
    if (!this.emitter) {
      throw new Error(
        'svc: AuthModule delivers its events (password reset mails among them) through @nestjs/event-emitter; add EventEmitterModule.forRoot() to the imports of your application module',
      );
    }
  }

  publishAfterResponse<N extends AuthEventName>(request: Request, name: N, payload: AuthEventPayloads[N]): void {
    if (this.emitter!.listenerCount(name) === 0 && this.emitter!.listenersAny().length === 0) return;
    this.afterResponse.run(request, `observers of ${name}`, () => this.deliver(name, payload));
  }

  /**
   * For work outside a request (`AuthService`, called by the application's own code or a script):
   * delivers at once, and resolves once the observers have settled (at most `hookTimeoutSeconds`).
   */
  async publishNow<N extends AuthEventName>(name: N, payload: AuthEventPayloads[N]): Promise<void> {
    if (this.emitter!.listenerCount(name) === 0 && this.emitter!.listenersAny().length === 0) return;
    await this.deliver(name, payload);
  }

  /** After the response when there is a request, else at once (`publishNow`). */
  async publish<N extends AuthEventName>(request: Request | undefined, name: N, payload: AuthEventPayloads[N]): Promise<void> {
    if (request) this.publishAfterResponse(request, name, payload);
    else await this.publishNow(name, payload);
  }

  private async deliver(name: AuthEventName, payload: unknown): Promise<void> {
    const secrets = SECRET_FIELDS.map((field) => (payload as Record<string, unknown>)[field]).filter((value): value is string => typeof value === 'string');
    const report = (error: unknown) => this.logger.error(`observer of ${name} failed: ${describeError(error, secrets)}`);
    const running: Promise<unknown>[] = [];
    const call = (listener: () => unknown) => {
      try {
        const result = listener();
        if (result instanceof Promise) running.push(result.catch(report));
      } catch (error) {
        report(error);
      }
    };
    for (const listener of this.emitter!.listeners(name)) call(() => (listener as (p: unknown) => unknown)(payload));
    for (const listener of this.emitter!.listenersAny()) call(() => listener(name, payload));
    if (running.length > 0) await this.settledWithinTimeout(name, running);
  }

  private async settledWithinTimeout(name: AuthEventName, running: Promise<unknown>[]): Promise<void> {
    const seconds = this.config.hookTimeoutSeconds;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), seconds * 1000);
      timer.unref();
    });
    const outcome = await Promise.race([Promise.all(running), timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.logger.warn(`observer of ${name} still running after ${seconds} s: no longer waited for`);
  }
}
