import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Request } from 'express';
import { withTimeLimit } from '../async/time-limit.js';
import { AUTH_CONFIG, AUTH_HOOKS, SVC_LOGGER } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import { describeError } from '../errors/describe-error.js';
import type { AuthHooks, HookName } from './auth-hooks.js';
import { HookAbort } from './hook-abort.js';
import { SecretString } from './secret-string.js';

export type HookPayload<N extends HookName> = Parameters<NonNullable<AuthHooks[N]>>[0];

/** The hook did not answer within `hookTimeoutSeconds` (it is left to finish on its own). */
class HookTimedOut extends Error {}

/**
 * Calls one before-hook, failing closed (docs/decisions/0011-before-hooks.md): an abort refuses, a crash or no answer
 * within `hookTimeoutSeconds` is a 500, and nothing of the operation has been written yet.
 */
@Injectable()
export class HookRunner {
  private readonly logger = new Logger(SVC_LOGGER);

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Optional() @Inject(AUTH_HOOKS) private readonly hooks?: AuthHooks,
  ) {}

  async run<N extends HookName>(name: N, payload: HookPayload<N>, request: Request): Promise<HookPayload<N>> {
    const hook = this.hooks?.[name] as ((p: HookPayload<N>, r: Request) => unknown) | undefined;
    if (!hook) return payload;
    let result: unknown;
    try {
      result = await withTimeLimit(() => hook.call(this.hooks, payload, request), this.config.hookTimeoutSeconds * 1000, () => new HookTimedOut());
    } catch (error) {
      if (error instanceof HookAbort) throw new AuthError('HOOK_ABORTED', { status: error.status, message: error.message });
      if (error instanceof HookTimedOut) {
        this.logger.error(`before-hook ${name} gave no answer within ${this.config.hookTimeoutSeconds} s`);
        throw new AuthError('HOOK_FAILED');
      }
      this.logger.error(`before-hook ${name} failed: ${describeError(error, secretsIn(payload))}`);
      throw new AuthError('HOOK_FAILED', { cause: error });
    }
    if (result === null || typeof result !== 'object') {
      this.logger.error(`before-hook ${name} returned no payload`);
      throw new AuthError('HOOK_FAILED');
    }
    return result as HookPayload<N>;
  }
}

function secretsIn(payload: object): string[] {
  return Object.values(payload).flatMap((value) => (value instanceof SecretString ? [value.reveal()] : []));
}
