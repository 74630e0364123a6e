import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { OAuthAccount } from '../entities/oauth-account.entity.js';

/** Rows of `oauth_accounts`: a provider identity linked to a user. Every method runs in the caller's transaction. */
@Injectable()
export class OAuthAccountStore {
  findLink(manager: EntityManager, provider: string, providerUserId: string): Promise<OAuthAccount | null> {
    return manager.findOneBy(OAuthAccount, { provider, providerUserId });
  }

  /** The identities linked to a user, oldest first (then by provider name). */
  findOfUser(manager: EntityManager, userId: string): Promise<OAuthAccount[]> {
    return manager.find(OAuthAccount, { where: { userId }, order: { createdAt: 'ASC', provider: 'ASC' } });
  }

  /** Deletes the user's identity at `provider`; returns whether there was one. */
  async unlink(manager: EntityManager, userId: string, provider: string): Promise<boolean> {
    const result = await manager.delete(OAuthAccount, { userId, provider });
    return (result.affected ?? 0) > 0;
  }

  /** Links the identity; the unique (provider, provider_user_id) refuses a second link (a concurrent first login). */
  async link(manager: EntityManager, fields: { provider: string; providerUserId: string; userId: string; email: string | null; createdAt: Date }): Promise<void> {
    await manager.insert(OAuthAccount, { id: randomUUID(), ...fields });
  }
}
