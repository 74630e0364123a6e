import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { withTimeLimit } from '../async/time-limit.js';
import { AUTH_CLOCK, AUTH_CONFIG, SVC_LOGGER } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import { describeError } from '../errors/describe-error.js';
import { ThrottledReport } from '../errors/throttled-report.js';
import { RateLimitStorage } from './rate-limit.storage.js';
import { routePathOf } from './route-path.js';
import { AccountKeys } from './account-keys.js';

/** As the guard's: a backend slower than this is down. */
const BACKEND_TIMEOUT_MS = 2000;

/**
 * The per-account limit of messages a route sends (forgot-password), counted after the response
 * under `account:<h>:path` with the section's `max` and `windowSeconds`. Past it the route still
 * answers as always and sends nothing more in the window: a stranger can neither stop the owner's
 * request nor tell from the answer that the account is being hammered (OWASP Authentication Cheat
 * Sheet, "Account Lockout"; docs/guides/rate-limiting.md).
 */
@Injectable()
export class AccountMessageLimit {
  private readonly accounts: AccountKeys;
  private readonly logger = new Logger(SVC_LOGGER);
  private readonly letThroughReport = new ThrottledReport((line) => this.logger.warn(line), () => this.clock.now().getTime());

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    @Inject(RateLimitStorage) private readonly storage: RateLimitStorage,
  ) {
    this.accounts = new AccountKeys(config.rateLimit?.accountKey);
  }

  /**
   * Counts one message for the (normalised) email on the request's route; false past the limit.
   * A backend that is down fails closed, as the limiter does: nothing is sent (`onBackendError:
   * 'deny'`, the error goes to the log) unless the application chose `'allow'`.
   */
  async admits(request: Request, email: string): Promise<boolean> {
    const settings = this.config.rateLimit;
    // The library's endpoints are limited only when a rateLimit section is given.
    if (!settings) return true;
    const key = this.accounts.ofAccount(email, routePathOf(request));
    try {
      const check = await withTimeLimit(() => this.storage.check(key, settings.windowSeconds, settings.max), BACKEND_TIMEOUT_MS, () => new Error(`no answer within ${BACKEND_TIMEOUT_MS} ms`));
      return check.allowed;
    } catch (error) {
      if (settings.onBackendError === 'deny') throw new Error(`rate-limit backend unavailable, no message sent (rateLimit.onBackendError = 'deny'): ${describeError(error)}`);
      this.letThroughReport.occurred(`rate-limit backend unavailable, message sent uncounted (rateLimit.onBackendError = 'allow'): ${describeError(error)}`);
      return true;
    }
  }
}
