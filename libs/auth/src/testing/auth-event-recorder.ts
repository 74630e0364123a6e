import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { AfterResponse } from '../events/after-response.js';
import { AuthEvent, type AuthEventName, type AuthEventPayloads, type PasswordResetRequestedEvent } from '../events/auth-events.js';

/** One event as an observer received it. */
export interface RecordedEvent<N extends AuthEventName = AuthEventName> {
  name: N;
  payload: AuthEventPayloads[N];
}

/** A password-reset mail the application would send: to whom, with which token. */
export interface RecordedResetMail {
  to: string;
  token: string;
  expiresAt: Date;
}

/**
 * Records every svc event, as an observer would receive it (add it to the providers of a test
 * module; `createAuthTestApp` does). Events are delivered after the response: `settled()` waits for
 * everything scheduled so far, so "no event was sent" is a check that can fail.
 */
@Injectable()
export class AuthEventRecorder implements OnModuleDestroy {
  readonly received: RecordedEvent[] = [];
  private readonly listener = (name: string | string[], payload: unknown) => {
    if (typeof name === 'string' && name.startsWith('svc.')) this.received.push({ name: name as AuthEventName, payload: payload as never });
  };

  constructor(
    private readonly emitter: EventEmitter2,
    private readonly afterResponse: AfterResponse,
  ) {
    emitter.onAny(this.listener);
  }

  /** Resolves once every event published so far has been delivered. */
  settled(): Promise<void> {
    return this.afterResponse.drain();
  }

  /** The payloads of one event, in the order they were delivered. */
  payloadsOf<N extends AuthEventName>(name: N): AuthEventPayloads[N][] {
    return this.received.filter((event) => event.name === name).map((event) => event.payload as AuthEventPayloads[N]);
  }

  /** The password-reset mails of `svc.password.reset_requested`, to `email` or to anyone. */
  resetMails(email?: string): RecordedResetMail[] {
    return this.payloadsOf(AuthEvent.PasswordResetRequested)
      .filter((event: PasswordResetRequestedEvent) => email === undefined || event.user.email === email)
      .map((event) => ({ to: event.user.email, token: event.token, expiresAt: event.expiresAt }));
  }

  clear(): void {
    this.received.length = 0;
  }

  onModuleDestroy(): void {
    this.emitter.offAny(this.listener);
  }
}
