import { Injectable } from '@nestjs/common';
import type { AuthHooks } from '#svc/auth';

export type HookBehaviour = 'pass' | 'throw' | 'reject' | 'hang';

/** How every hook of `MisbehavingHooks` acts; the test sets it before each request. */
export const hookBehaviour: { mode: HookBehaviour } = { mode: 'pass' };

function act<T>(payload: T): T | Promise<T> {
  switch (hookBehaviour.mode) {
    case 'throw':
      throw new Error('hook exploded');
    case 'reject':
      return Promise.reject(new TypeError('hook failed later'));
    case 'hang':
      return new Promise<T>(() => undefined);
    default:
      return payload;
  }
}

/** Every before-hook, each one passing, throwing, rejecting or never settling as `hookBehaviour` says. */
@Injectable()
export class MisbehavingHooks implements AuthHooks {
  beforeSignup = act;
  beforeLogin = act;
  beforeLogout = act;
  beforeRefresh = act;
  beforeForgotPassword = act;
  beforeResetPassword = act;
  beforeChangePassword = act;
}
