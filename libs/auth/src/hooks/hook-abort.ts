import { HttpStatus } from '@nestjs/common';

/**
 * Thrown by a before-hook to refuse the operation; answered with `status` (a 4xx, 403 by default)
 * and code `HOOK_ABORTED`. Any other status is a programming error: a `TypeError`, so the hook
 * fails closed (500 `HOOK_FAILED`, logged) instead of answering a refusal with 2xx, 3xx or 5xx.
 */
export class HookAbort extends Error {
  override readonly name = 'HookAbort';

  constructor(
    message = 'Operation refused',
    readonly status: HttpStatus = HttpStatus.FORBIDDEN,
  ) {
    if (!Number.isInteger(status) || status < 400 || status > 499) throw new TypeError(`svc: HookAbort status must be a 4xx status, got ${String(status)}`);
    super(message);
  }
}
