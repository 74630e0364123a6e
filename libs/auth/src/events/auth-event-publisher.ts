import { Injectable, Logger, type OnModuleInit, Optional } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { Request } from 'express';
import { SVC_LOGGER } from '../auth.constants.js';
import { describeError } from '../errors/describe-error.js';
import { AfterResponse } from './after-response.js';
import type { AuthEventName, AuthEventPayloads } from './auth-events.js';

/** Payload fields masked in an observer's crash message. */
const SECRET_FIELDS = ['token', 'providerAccessToken', 'providerRefreshToken'];

/**
 * Delivers events to observers after the response has been sent (README, "5. Observers"). Each observer
 * runs on its own: a crash is logged to `svc` and changes nothing else. An observer's promise is
 * not waited for, so one that never settles holds up nothing.
 */
@Injectable()
export class AuthEventPublisher implements OnModuleInit {
  private readonly logger = new Logger(SVC_LOGGER);

  constructor(
    private readonly afterResponse: AfterResponse,
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

  private deliver(name: AuthEventName, payload: unknown): void {
    const secrets = SECRET_FIELDS.map((field) => (payload as Record<string, unknown>)[field]).filter((value): value is string => typeof value === 'string');
    const report = (error: unknown) => this.logger.error(`observer of ${name} failed: ${describeError(error, secrets)}`);
    const call = (listener: () => unknown) => {
      try {
        const result = listener();
        if (result instanceof Promise) result.catch(report);
      } catch (error) {
        report(error);
      }
    };
    for (const listener of this.emitter!.listeners(name)) call(() => (listener as (p: unknown) => unknown)(payload));
    for (const listener of this.emitter!.listenersAny()) call(() => listener(name, payload));
  }
}
