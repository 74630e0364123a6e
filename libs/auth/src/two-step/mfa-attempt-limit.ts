import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { withTimeLimit } from '../async/time-limit.js';
import { AUTH_CONFIG, SVC_LOGGER } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import { describeError } from '../errors/describe-error.js';
import { clientAddressOf } from '../http/client-address.js';
import { AccountKeys } from '../rate-limit/account-keys.js';
import { clientKeyOfAddress } from '../rate-limit/client-key.js';
import { type RateLimitCheck, RateLimitStorage } from '../rate-limit/rate-limit.storage.js';
import type { MfaChallenge } from './mfa-challenge-token.js';

/** RFC 4226 §7.3, RFC 6238 §5.2: five tries a challenge; then the password must be given again. */
export const ATTEMPTS_PER_CHALLENGE = 5;
/** The challenge's counter window: the longest `mfa.challengeTtlSeconds`, so a challenge spans two windows at most. */
const CHALLENGE_WINDOW_SECONDS = 900;
const BACKEND_TIMEOUT_MS = 2000;
const ROUTE = '/mfa/verify';

/** With a rateLimit section, the counters a wrong code counts against: this client's failures for the account, and the account's from every client. */
interface AttemptKeys {
  account?: { ofClient: string; ofAccount: string };
}

/**
 * The limits of `/mfa/verify` beyond its per-address one (docs/guides/two-step.md): every attempt
 * counts against its challenge (always: five, then 429 until the user logs in again; counted before
 * the code is looked at, so concurrent guesses cannot overrun it) and, with a `rateLimit` section,
 * wrong codes count per account and client address with the account's ceiling across addresses, by
 * the rule of the login (docs/guides/rate-limiting.md: no lockout by strangers): a client that has not
 * failed is never refused for the account because of other addresses' failures.
 */
@Injectable()
export class MfaAttemptLimit {
  private readonly accounts: AccountKeys;
  private readonly logger = new Logger(SVC_LOGGER);

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(RateLimitStorage) private readonly storage: RateLimitStorage,
  ) {
    this.accounts = new AccountKeys(config.rateLimit?.accountKey);
  }

  /** Counts the attempt against its challenge; throws 429 RATE_LIMITED (with Retry-After) past it, or when this client has failed too often for the account. */
  async admit(request: Request, response: Response, challenge: MfaChallenge): Promise<AttemptKeys> {
    refuseIfSpent(response, await this.guarded(() => this.storage.check(`mfa-challenge:${challenge.challengeId}`, CHALLENGE_WINDOW_SECONDS, ATTEMPTS_PER_CHALLENGE)));
    const keys = this.keysOf(request, challenge);
    const settings = this.config.rateLimit;
    if (!keys.account || !settings) return keys;
    const ofClient = await this.peek(keys.account.ofClient, settings.windowSeconds, settings.max);
    refuseIfSpent(response, ofClient);
    if (ofClient && ofClient.count > 0) refuseIfSpent(response, await this.peek(keys.account.ofAccount, settings.windowSeconds, settings.accountCeiling));
    return keys;
  }

  /** Counts one wrong code for the account and address; a right one spends nothing of them. */
  async countFailure(keys: AttemptKeys): Promise<void> {
    const { account } = keys;
    const settings = this.config.rateLimit;
    if (!account || !settings) return;
    await this.guarded(() =>
      Promise.all([this.storage.check(account.ofClient, settings.windowSeconds, settings.max), this.storage.check(account.ofAccount, settings.windowSeconds, settings.accountCeiling)]),
    );
  }

  private keysOf(request: Request, challenge: MfaChallenge): AttemptKeys {
    if (!this.config.rateLimit) return {};
    const address = clientAddressOf(request, this.config);
    const client = address === null ? null : clientKeyOfAddress(address);
    // The limiter's own guard refused a request without an address before this runs.
    if (client === null) throw new AuthError('RATE_LIMITED', { message: 'Client address could not be determined' });
    return { account: this.accounts.failuresOf(`user:${challenge.userId}`, client, `${this.config.prefix}${ROUTE}`) };
  }

  private peek(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck | undefined> {
    return this.guarded(() => this.storage.peek(key, windowSeconds, max));
  }

  /** A backend that is down fails as the limiter does (`rateLimit.onBackendError`). */
  private async guarded<T>(work: () => T | Promise<T>): Promise<T | undefined> {
    try {
      return await withTimeLimit(work, BACKEND_TIMEOUT_MS, () => new Error(`no answer within ${BACKEND_TIMEOUT_MS} ms`));
    } catch (error) {
      if (this.config.rateLimit?.onBackendError === 'allow') {
        this.logger.warn(`rate-limit backend unavailable, two-step attempt let through uncounted (rateLimit.onBackendError = 'allow'): ${describeError(error)}`);
        return undefined;
      }
      throw new AuthError('SERVICE_UNAVAILABLE', { cause: error });
    }
  }
}

function refuseIfSpent(response: Response, check: RateLimitCheck | undefined): void {
  if (!check || check.allowed) return;
  response.setHeader('Retry-After', String(check.retryAfterSeconds));
  throw new AuthError('RATE_LIMITED');
}
