import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { AfterResponse } from '../events/after-response.js';
import { AuthEvent, type AuthEventName, type AuthEventPayloads, type PasswordResetRequestedEvent } from '../events/auth-events.js';
import { recordsOnly } from '../events/records-only.js';

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
export class AuthEventRecorder implements OnApplicationShutdown {
  readonly received: RecordedEvent[] = [];
  /** The pending `waitFor` calls: each answers whether it is done. */
  private waiters: (() => boolean)[] = [];
  // Records only: it mails nothing, so the application still needs its mail observers to start.
  private readonly listener = recordsOnly((name: string | string[], payload: unknown) => {
    if (typeof name !== 'string' || !name.startsWith('svc.')) return;
    this.received.push({ name: name as AuthEventName, payload: payload as never });
    this.waiters = this.waiters.filter((done) => !done());
  });

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

  /**
   * Resolves with the payloads of `name` once it has been delivered `count` times, or fails after
   * `timeoutMs`: for events of work a test cannot await (a timer, another instance). For the
   * events of requests, `settled()` is the sharper check.
   */
  waitFor<N extends AuthEventName>(name: N, count = 1, timeoutMs = 5000): Promise<AuthEventPayloads[N][]> {
    return new Promise((resolve, reject) => {
      const done = (): boolean => {
        const payloads = this.payloadsOf(name);
        if (payloads.length < count) return false;
        clearTimeout(timer);
        resolve(payloads);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== done);
        reject(new Error(`event ${name} not delivered ${count} time(s) within ${timeoutMs} ms`));
      }, timeoutMs);
      if (!done()) this.waiters.push(done);
    });
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

  /** After the application's last work is delivered (its shutdown drains it first), so closing loses no event. */
  onApplicationShutdown(): void {
    this.emitter.offAny(this.listener);
  }
}
