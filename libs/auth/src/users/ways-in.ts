import { Inject, Injectable } from '@nestjs/common';
import { type EntityManager, In } from 'typeorm';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { OAuthAccount } from '../entities/oauth-account.entity.js';
import { Passkey } from '../entities/passkey.entity.js';
import type { SvcUser } from '../entities/user.entity.js';
import { UserStore } from './user-store.js';

/**
 * The one place that counts a user's ways in (docs/guides/linking.md, "Passkeys"): a password
 * (with the password method on), each identity linked at a provider this module configures, and
 * each passkey (with passkeys on). An identity at a provider removed from the options, or a passkey
 * while passkeys are off, cannot sign anyone in, so it does not count.
 */
@Injectable()
export class WaysIn {
  private readonly providers: readonly string[];

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly users: UserStore,
  ) {
    this.providers = [...(config.oauth2?.providers ?? []), ...(config.oidc?.providers ?? [])].map((provider) => provider.name);
  }

  /**
   * The user's row, locked until the transaction ends, and how many ways in it has; null for a
   * missing or inactive user. Whoever removes a way in asks here inside its transaction, so two
   * concurrent removals run one after the other and cannot each leave the other as the last.
   */
  async lockAndCount(manager: EntityManager, userId: string): Promise<{ user: SvcUser; count: number } | null> {
    const user = await this.users.lockById(manager, userId);
    if (!user?.isActive) return null;
    return { user, count: (this.signsInWithPassword(user) ? 1 : 0) + (await this.identities(manager, userId)) + (await this.passkeys(manager, userId)) };
  }

  /** Whether the user can sign in here with a password. */
  signsInWithPassword(user: SvcUser): boolean {
    return user.passwordHash !== null && this.config.loginMethods.includes('password');
  }

  private identities(manager: EntityManager, userId: string): Promise<number> {
    if (this.providers.length === 0) return Promise.resolve(0);
    return manager.countBy(OAuthAccount, { userId, provider: In([...this.providers]) });
  }

  private passkeys(manager: EntityManager, userId: string): Promise<number> {
    if (!this.config.passkeys) return Promise.resolve(0);
    return manager.countBy(Passkey, { userId });
  }
}
