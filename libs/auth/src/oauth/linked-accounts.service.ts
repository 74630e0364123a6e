import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AuditLog } from '../audit-log/audit-log.js';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { OAuthMethod } from '../config/login-methods.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { WaysIn } from '../users/ways-in.js';
import { OAuthAccountStore } from './oauth-account.store.js';

/** 404 NOT_FOUND's message for an identity the user has not linked (docs/decisions/0004-errors.md). */
const NO_SUCH_IDENTITY = 'No such linked identity';

/** The answer of GET /accounts: the user's ways in (docs/guides/linking.md). */
export interface LinkedAccountsBody {
  /** Whether the user can sign in with a password here. */
  password: boolean;
  identities: { method: OAuthMethod; provider: string; email: string | null; createdAt: string }[];
}

/**
 * A signed-in user's ways in: a password, and the provider identities linked to the account. An
 * identity at a provider this module does not configure (one removed from the options) cannot sign
 * anyone in, so it is neither listed nor counted.
 */
@Injectable()
export class LinkedAccounts {
  private readonly methodOfProvider: ReadonlyMap<string, OAuthMethod>;

  constructor(
    @Inject(AUTH_CONFIG) config: AuthConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly waysIn: WaysIn,
    private readonly accounts: OAuthAccountStore,
    private readonly audit: AuditLog,
  ) {
    const named = (method: OAuthMethod) => (config[method]?.providers ?? []).map((provider) => [provider.name, method] as const);
    this.methodOfProvider = new Map([...named('oauth2'), ...named('oidc')]);
  }

  list(user: SvcUser): Promise<LinkedAccountsBody> {
    return this.unitOfWork.autocommit(async (manager) => ({
      password: this.waysIn.signsInWithPassword(user),
      identities: (await this.accounts.findOfUser(manager, user.id)).flatMap((account) => {
        const method = this.methodOfProvider.get(account.provider);
        return method ? [{ method, provider: account.provider, email: account.email, createdAt: account.createdAt.toISOString() }] : [];
      }),
    }));
  }

  /**
   * Unlinks the user's identity at `provider` of `method`: 404 NOT_FOUND when there is none, 409
   * LAST_LOGIN_METHOD when it is the user's only way in (counted by `WaysIn`, under the user's row
   * lock, so that two concurrent removals cannot each leave the other as the last way in and both succeed).
   */
  unlink(userId: string, method: string, provider: string, request?: Request): Promise<SvcUser> {
    if (this.methodOfProvider.get(provider) !== method) return Promise.reject(new AuthError('NOT_FOUND', { message: NO_SUCH_IDENTITY }));
    return this.unitOfWork.transaction(async (manager) => {
      const locked = await this.waysIn.lockAndCount(manager, userId);
      if (!locked) throw new AuthError('UNAUTHENTICATED');
      const identities = await this.accounts.findOfUser(manager, userId);
      if (!identities.some((account) => account.provider === provider)) throw new AuthError('NOT_FOUND', { message: NO_SUCH_IDENTITY });
      if (locked.count <= 1) throw new AuthError('LAST_LOGIN_METHOD');
      await this.accounts.unlink(manager, userId, provider);
      await this.audit.record(manager, { action: 'identity_unlinked', userId, request, details: { method, provider } });
      return locked.user;
    });
  }
}
