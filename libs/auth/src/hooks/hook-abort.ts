import { HttpStatus } from '@nestjs/common';

/** Thrown by a before-hook to refuse the operation; answered with `status` and code `HOOK_ABORTED`. */
export class HookAbort extends Error {
  override readonly name = 'HookAbort';

  constructor(
    message = 'Operation refused',
    readonly status: HttpStatus = HttpStatus.FORBIDDEN,
  ) {
    super(message);
  }
}
