import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type EntityManager, IsNull } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Clock } from '../config/clock.js';
import { hashToken, randomToken } from '../crypto/opaque-token.js';
import { OrganizationInvitation } from '../entities/organization-invitation.entity.js';

const HOUR_MS = 3_600_000;

/** A new invitation and its token, for the mail only. */
export interface IssuedInvitation {
  invitation: OrganizationInvitation;
  token: string;
}

/**
 * Rows of `organization_invitations` (docs/guides/organizations.md), each in the caller's
 * transaction. OWASP Forgot Password Cheat Sheet, applied to invitations: 256 random bits, stored as
 * SHA-256 and found by that hash, single use, expiring on the injected clock.
 */
@Injectable()
export class InvitationStore {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {}

  /** A new invitation of `email` (normalised) to the organization; an older pending one of the same address there is superseded. */
  async issue(manager: EntityManager, organizationId: string, email: string, role: string, invitedBy: string): Promise<IssuedInvitation> {
    await manager.delete(OrganizationInvitation, { organizationId, email, acceptedAt: IsNull() });
    const token = randomToken();
    const now = this.clock.now();
    const invitation: OrganizationInvitation = {
      id: randomUUID(),
      organizationId,
      email,
      role,
      tokenHash: hashToken(token),
      invitedBy,
      expiresAt: new Date(now.getTime() + this.config.organizations!.invitationTtlHours * HOUR_MS),
      acceptedAt: null,
      createdAt: now,
    };
    await manager.insert(OrganizationInvitation, invitation);
    return { invitation, token };
  }

  /**
   * The invitation of a token that is neither accepted nor expired, or null. Found by the token's
   * SHA-256 (an attacker cannot steer the hash of a guess, so the lookup's timing leaks nothing).
   */
  async findUsable(manager: EntityManager, token: string): Promise<OrganizationInvitation | null> {
    const row = await manager.findOneBy(OrganizationInvitation, { tokenHash: hashToken(token) });
    if (!row || row.acceptedAt !== null || row.expiresAt.getTime() <= this.clock.now().getTime()) return null;
    return row;
  }

  /** Spends the invitation: true for the one request that did (exactly one of concurrent accepts wins). */
  async accept(manager: EntityManager, invitationId: string): Promise<boolean> {
    const result = await manager.update(OrganizationInvitation, { id: invitationId, acceptedAt: IsNull() }, { acceptedAt: this.clock.now() });
    return (result.affected ?? 0) === 1;
  }

  /** Revokes (deletes) a pending invitation of the organization; false when there is none. */
  async revoke(manager: EntityManager, organizationId: string, invitationId: string): Promise<boolean> {
    const result = await manager.delete(OrganizationInvitation, { id: invitationId, organizationId, acceptedAt: IsNull() });
    return (result.affected ?? 0) > 0;
  }
}
