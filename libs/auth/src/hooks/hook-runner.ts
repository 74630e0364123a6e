import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Request } from 'express';
import { AUTH_CONFIG, AUTH_HOOKS, SVC_LOGGER } from '../auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import { describeError } from '../errors/describe-error.js';
import type { AuthHooks, HookName } from './auth-hooks.js';
import { HookAbort } from './hook-abort.js';
import { SecretString } from './secret-string.js';

type HookPayload<N extends HookName> = Parameters<NonNullable<AuthHooks[N]>>[0];

const NO_ANSWER = Symbol('no answer');

/**
 * Calls one before-hook, failing closed (README, "Before-hooks"): an abort refuses, a crash or no answer
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
      result = await this.withinTimeout(() => hook.call(this.hooks, payload, request));
    } catch (error) {
      if (error instanceof HookAbort) throw new AuthError('HOOK_ABORTED', { status: error.status, message: error.message });
      this.logger.error(`before-hook ${name} failed: ${describeError(error, secretsIn(payload))}`);
      throw new AuthError('HOOK_FAILED', { cause: error });
    }
    if (result === NO_ANSWER) {
      this.logger.error(`before-hook ${name} gave no answer within ${this.config.hookTimeoutSeconds} s`);
      throw new AuthError('HOOK_FAILED');
    }
    if (result === null || typeof result !== 'object') {
      this.logger.error(`before-hook ${name} returned no payload`);
      throw new AuthError('HOOK_FAILED');
    }
    return result as HookPayload<N>;
  }

  /** The hook's answer, or NO_ANSWER once the timeout has passed (the hook is left to finish on its own). */
  private async withinTimeout(call: () => unknown): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof NO_ANSWER>((resolve) => {
      timer = setTimeout(() => resolve(NO_ANSWER), this.config.hookTimeoutSeconds * 1000);
    });
    try {
      return await Promise.race([Promise.resolve().then(call), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function secretsIn(payload: object): string[] {
  return Object.values(payload).flatMap((value) => (value instanceof SecretString ? [value.reveal()] : []));
}
