import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { withTimeLimit } from '../async/time-limit.js';
import { AUTH_CONFIG, SVC_LOGGER } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import { describeError } from '../errors/describe-error.js';
import { AccountKeys } from '../rate-limit/account-keys.js';
import { type RateLimitCheck, RateLimitStorage } from '../rate-limit/rate-limit.storage.js';

/** Invitations one organization may send in an hour. */
export const INVITATIONS_PER_ORGANIZATION = 50;
/** Invitations one address may receive in an hour, from every organization together. */
export const INVITATIONS_PER_ADDRESS = 5;
const WINDOW_SECONDS = 3600;
const BACKEND_TIMEOUT_MS = 2000;
const ROUTE = '/organizations/invitations';

/**
 * The limits of invitations (docs/guides/organizations.md), always on, in the limiter's backend: per
 * organization, and per invited address (so no one's mailbox is flooded through svc, OWASP ASVS 5.0
 * V2.4.1). Addresses are keyed by HMAC (`AccountKeys`), never stored as they are. 429 `RATE_LIMITED`
 * with `Retry-After` past either; a backend that is down fails as the limiter does.
 */
@Injectable()
export class InvitationLimit {
  private readonly addresses: AccountKeys;
  private readonly logger = new Logger(SVC_LOGGER);

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(RateLimitStorage) private readonly storage: RateLimitStorage,
  ) {
    this.addresses = new AccountKeys(config.rateLimit?.accountKey);
  }

  async admit(response: Response, organizationId: string, email: string): Promise<void> {
    refuseIfSpent(response, await this.check(`org-invitations:${organizationId}`, INVITATIONS_PER_ORGANIZATION));
    refuseIfSpent(response, await this.check(this.addresses.ofAccount(email, `${this.config.prefix}${ROUTE}`), INVITATIONS_PER_ADDRESS));
  }

  private async check(key: string, max: number): Promise<RateLimitCheck | undefined> {
    try {
      return await withTimeLimit(() => this.storage.check(key, WINDOW_SECONDS, max), BACKEND_TIMEOUT_MS, () => new Error(`no answer within ${BACKEND_TIMEOUT_MS} ms`));
    } catch (error) {
      if (this.config.rateLimit?.onBackendError === 'allow') {
        this.logger.warn(`rate-limit backend unavailable, invitation let through uncounted (rateLimit.onBackendError = 'allow'): ${describeError(error)}`);
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
