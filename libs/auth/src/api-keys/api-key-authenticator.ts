import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { intersectPermissions, permissionsOfRoles } from '../config/authorization-policy.js';
import type { Clock } from '../config/clock.js';
import { type Principal, principalOfCredential } from '../credentials/credential-resolver.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { rolesOf } from '../users/user-roles.js';
import { hashApiKey, isWellFormedApiKey } from './api-key-token.js';
import { ApiKeyStore } from './api-key.store.js';

/** `last_used_at` is written at most this often per key, so a busy key's requests stay reads. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Who an API key stands for (docs/guides/machine-access.md): its owner, if the key is known, not
 * revoked, not expired and its owner active; else null. Read from the database at every request and
 * never cached, so a revocation or a deactivation holds at the next request on every instance.
 */
@Injectable()
export class ApiKeyAuthenticator {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly store: ApiKeyStore,
    private readonly serializer: UserSerializer,
  ) {}

  async authenticate(key: string): Promise<Principal | null> {
    if (!isWellFormedApiKey(key)) return null;
    const now = this.clock.now();
    // Fails closed: any doubt about the key (unknown, revoked, expired, its owner inactive) is no principal.
    const found = await this.unitOfWork.autocommit(async (manager) => {
      const row = await this.store.findWithUser(manager, hashApiKey(key));
      if (!row || !this.isUsable(row.key, now) || !row.user.isActive) return null;
      if (row.key.lastUsedAt === null || now.getTime() - row.key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) await this.store.touch(manager, row.key, now);
      return row;
    });
    if (!found) return null;
    const scopes = [...found.key.scopes];
    const body = this.serializer.principalBody(found.user);
    const policy = this.config.authorization;
    // The key acts with its scopes within its owner's current permissions (docs/decisions/0032-api-keys.md).
    if (policy) body.permissions = intersectPermissions(permissionsOfRoles(policy, rolesOf(found.user) ?? []), scopes);
    body.apiKey = { id: found.key.id, scopes: [...scopes] };
    return { ...principalOfCredential(found.user, body, { authTime: null }), apiKey: { id: found.key.id, scopes } };
  }

  private isUsable(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): boolean {
    return key.revokedAt === null && (key.expiresAt === null || key.expiresAt.getTime() > now.getTime());
  }
}
