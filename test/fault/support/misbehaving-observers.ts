import { Injectable } from '@nestjs/common';
import { AuthEvent, OnAuthEvent } from '#svc/auth';

/** Observers that never settle: registered first, so the others run after them. */
@Injectable()
export class HangingObservers {
  @OnAuthEvent(AuthEvent.SignupAfter)
  onSignup(): Promise<void> {
    return new Promise(() => undefined);
  }

  @OnAuthEvent(AuthEvent.LoginAfter)
  onLogin(): Promise<void> {
    return new Promise(() => undefined);
  }
}

/** Observers that throw at once or reject later. */
@Injectable()
export class CrashingObservers {
  @OnAuthEvent(AuthEvent.SignupAfter)
  onSignup(): void {
    throw new Error('observer exploded');
  }

  @OnAuthEvent(AuthEvent.LoginAfter)
  async onLogin(): Promise<void> {
    throw new RangeError('observer failed later');
  }

  @OnAuthEvent(AuthEvent.LogoutAfter)
  onLogout(): void {
    throw new Error('observer exploded at logout');
  }
}

/** A well-behaved observer registered after the others: what it receives shows they did not stop it. */
@Injectable()
export class RecordingObserver {
  readonly received: string[] = [];

  @OnAuthEvent(AuthEvent.SignupAfter)
  onSignup(): void {
    this.received.push(AuthEvent.SignupAfter);
  }

  @OnAuthEvent(AuthEvent.LoginAfter)
  onLogin(): void {
    this.received.push(AuthEvent.LoginAfter);
  }

  @OnAuthEvent(AuthEvent.LogoutAfter)
  onLogout(): void {
    this.received.push(AuthEvent.LogoutAfter);
  }
}
