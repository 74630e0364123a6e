import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { withTimeLimit } from '../../async/time-limit.js';
import { AUTH_CONFIG, SVC_LOGGER } from '../../auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { AuthError } from '../../errors/auth.error.js';
import { describeError } from '../../errors/describe-error.js';
import { clientAddressOf } from '../../http/client-address.js';
import { AccountKeys } from '../../rate-limit/account/account-keys.js';
import { clientKeyOfAddress } from '../../rate-limit/client-key.js';
import { type RateLimitCheck, RateLimitStorage } from '../../rate-limit/rate-limit.storage.js';
import type { MfaChallenge } from './mfa-challenge-token.js';

/** RFC 6238 §5.2, RFC 4226 §7.3: a challenge survives five wrong codes; then the password must be given again. */
export const FAILURES_PER_CHALLENGE = 5;
/** The challenge's counter window: the longest `mfa.challengeTtlSeconds`. */
const CHALLENGE_WINDOW_SECONDS = 900;
const BACKEND_TIMEOUT_MS = 2000;
const ROUTE = '/mfa/verify';

/** The counters one verification is weighed against. */
interface AttemptKeys {
  challenge: string;
  /** With a rateLimit section: this client's failures for the account, and the account's from every client. */
  account?: { ofClient: string; ofAccount: string };
}

/**
 * The limits of `/mfa/verify` beyond its per-address one (README, "Two-step login"): wrong codes are
 * counted per challenge (always: five, then 429 until the user logs in again) and, with a `rateLimit`
 * section, per account and client address with the account's ceiling across addresses, by the rule
 * of the login (README, "Rate limiting": no lockout by strangers). Only failures count; a client
 * that has not failed is never refused for the account because of other addresses' failures.
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

  /** Throws 429 RATE_LIMITED (with Retry-After) when this challenge, or this client for this account, has failed too often. */
  async admit(request: Request, response: Response, challenge: MfaChallenge): Promise<AttemptKeys> {
    const keys = this.keysOf(request, challenge);
    refuseIfSpent(response, await this.peek(keys.challenge, CHALLENGE_WINDOW_SECONDS, FAILURES_PER_CHALLENGE));
    const settings = this.config.rateLimit;
    if (!keys.account || !settings) return keys;
    const ofClient = await this.peek(keys.account.ofClient, settings.windowSeconds, settings.max);
    refuseIfSpent(response, ofClient);
    if (ofClient && ofClient.count > 0) refuseIfSpent(response, await this.peek(keys.account.ofAccount, settings.windowSeconds, settings.accountCeiling));
    return keys;
  }

  /** Counts one wrong code against every counter of the attempt. */
  async countFailure(keys: AttemptKeys): Promise<void> {
    const settings = this.config.rateLimit;
    await this.guarded(() =>
      Promise.all([
        this.storage.check(keys.challenge, CHALLENGE_WINDOW_SECONDS, FAILURES_PER_CHALLENGE),
        ...(keys.account && settings
          ? [this.storage.check(keys.account.ofClient, settings.windowSeconds, settings.max), this.storage.check(keys.account.ofAccount, settings.windowSeconds, settings.accountCeiling)]
          : []),
      ]),
    );
  }

  private keysOf(request: Request, challenge: MfaChallenge): AttemptKeys {
    const challengeKey = `mfa-challenge:${challenge.challengeId}`;
    if (!this.config.rateLimit) return { challenge: challengeKey };
    const address = clientAddressOf(request, this.config);
    const client = address === null ? null : clientKeyOfAddress(address);
    // The limiter's own guard refused a request without an address before this runs.
    if (client === null) throw new AuthError('RATE_LIMITED', { message: 'Client address could not be determined' });
    return { challenge: challengeKey, account: this.accounts.failuresOf(`user:${challenge.userId}`, client, `${this.config.prefix}${ROUTE}`) };
  }

  private peek(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck | undefined> {
    return this.guarded(() => this.storage.peek(key, windowSeconds, max));
  }

  /** A backend that is down fails as the limiter does (`rateLimit.onBackendError`). */
  private async guarded<T>(work: () => Promise<T>): Promise<T | undefined> {
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
