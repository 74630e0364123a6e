import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { catchError, from, mergeMap, type Observable, throwError } from 'rxjs';
import { AuthError } from '../errors/auth.error.js';

/** Where the guard leaves, on the request, how to count this login should it fail. */
const COUNT_IF_FAILED = Symbol('svc: count this login if it fails');

type CountFailure = () => Promise<void>;

/** Called by `RateLimitGuard` once it has let a login through on its per-account keys. */
export function countIfLoginFails(request: Request, count: CountFailure): void {
  (request as Request & { [COUNT_IF_FAILED]?: CountFailure })[COUNT_IF_FAILED] = count;
}

/**
 * The second half of the per-account rule on login (docs/guides/rate-limiting.md): the guard only
 * looked at the account's counters; a login that fails with `INVALID_CREDENTIALS` (wrong password
 * or unknown email, alike) is counted here, before its 401 is sent, and a correct password spends
 * nothing (OWASP Authentication Cheat Sheet, "Account Lockout"). Counting fails like a check does:
 * 503 with `onBackendError: 'deny'`.
 */
@Injectable()
export class LoginFailuresInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request & { [COUNT_IF_FAILED]?: CountFailure }>();
    return next.handle().pipe(
      catchError((error: unknown) => {
        const count = request[COUNT_IF_FAILED];
        if (count === undefined || !(error instanceof AuthError) || error.code !== 'INVALID_CREDENTIALS') return throwError(() => error);
        return from(count()).pipe(mergeMap(() => throwError(() => error)));
      }),
    );
  }
}
