import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK } from '../../config/auth.constants.js';
import type { Clock } from '../../config/clock.js';
import type { RefreshFamily } from './refresh-family.entity.js';
import type { RefreshToken } from './refresh-token.entity.js';
import type { SvcUser } from '../../entities/user.entity.js';
import { UnitOfWork } from '../../persistence/unit-of-work.js';
import { UserStore } from '../../users/user-store.js';
import { type JwtCredential, JwtCredentialIssuer } from './jwt-credential.issuer.js';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings.js';
import { RefreshFamilyStore } from './refresh-family-store.js';
import { RefreshTokenStore } from './refresh-token-store.js';

/** How a refresh ended. Only `rotated` issues a credential; `reused` has revoked the family. */
export type RefreshOutcome =
  | { kind: 'rotated'; user: SvcUser; credential: JwtCredential }
  | { kind: 'reused'; userId: string; familyId: string; newlyRevoked: boolean }
  | { kind: 'invalid' }
  | { kind: 'inactive' };

const INVALID: RefreshOutcome = { kind: 'invalid' };
const INACTIVE: RefreshOutcome = { kind: 'inactive' };

/**
 * POST /refresh: consumes the presented token and issues the next one of its family, in one
 * transaction (docs/decisions/0013-refresh-tokens-jwt.md and docs/decisions/0003-transactions.md). A consumed token presented again revokes the family (RFC 9700
 * §4.14.2, refresh token rotation), except once within `refreshReuseGraceSeconds`. The outcome
 * is returned, not thrown, so that a revocation is committed even though the request fails. A
 * refresh is no sign-in: the new access token carries the family's `auth_time` as it stands.
 */
@Injectable()
export class RefreshRotation {
  constructor(
    @Inject(JWT_SETTINGS) private readonly jwt: JwtSettings,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly refreshTokens: RefreshTokenStore,
    private readonly families: RefreshFamilyStore,
    private readonly users: UserStore,
    private readonly issuer: JwtCredentialIssuer,
  ) {}

  rotate(token: string): Promise<RefreshOutcome> {
    return this.unitOfWork.transaction(async (manager) => {
      const row = await this.refreshTokens.findByToken(manager, token);
      return row ? this.rotateRow(manager, row) : INVALID;
    });
  }

  private async rotateRow(manager: EntityManager, row: RefreshToken): Promise<RefreshOutcome> {
    if (row.revokedAt || (await this.refreshTokens.isFamilyRevoked(manager, row.familyId))) return INVALID;
    if (this.isExpired(row)) return INVALID;
    // docs/decisions/0013-refresh-tokens-jwt.md: past its absolute end a family is refused however recently it was used.
    const family = await this.families.findLive(manager, row.familyId);
    if (!family) return INVALID;
    if (row.consumedAt) return this.presentedAgain(manager, row, family);
    const user = await this.users.findById(manager, row.userId);
    if (!user) return INVALID;
    if (!user.isActive) return INACTIVE;
    if (!(await this.refreshTokens.consume(manager, row.id))) {
      // Another request consumed (or revoked) it between our read and our update.
      const current = await this.refreshTokens.findById(manager, row.id);
      return current && !current.revokedAt ? this.presentedAgain(manager, current, family) : INVALID;
    }
    await this.families.touch(manager, row.familyId);
    const organizationId = await this.families.activeOrganizationOf(manager, row.familyId);
    return { kind: 'rotated', user, credential: await this.issuer.withAccessToken(manager, user, await this.refreshTokens.issue(manager, user.id, row.familyId), family.authTime, family.impersonatedBy, organizationId) };
  }

  /** A consumed token again: the grace successor if it is still available, else a reuse. */
  private async presentedAgain(manager: EntityManager, row: RefreshToken, family: RefreshFamily): Promise<RefreshOutcome> {
    if (this.withinGrace(row)) {
      const user = await this.users.findById(manager, row.userId);
      if (!user) return INVALID;
      if (!user.isActive) return INACTIVE;
      const successor = await this.refreshTokens.issueGraceSuccessor(manager, row);
      if (successor) {
        await this.families.touch(manager, row.familyId);
        const organizationId = await this.families.activeOrganizationOf(manager, row.familyId);
        return { kind: 'rotated', user, credential: await this.issuer.withAccessToken(manager, user, successor, family.authTime, family.impersonatedBy, organizationId) };
      }
    }
    const newlyRevoked = (await this.refreshTokens.revokeFamily(manager, row.familyId)) > 0;
    return { kind: 'reused', userId: row.userId, familyId: row.familyId, newlyRevoked };
  }

  private isExpired(row: RefreshToken): boolean {
    return row.expiresAt.getTime() <= this.clock.now().getTime();
  }

  private withinGrace(row: RefreshToken): boolean {
    const graceMs = this.jwt.refreshReuseGraceSeconds * 1000;
    return graceMs > 0 && row.consumedAt !== null && this.clock.now().getTime() - row.consumedAt.getTime() < graceMs;
  }
}
