import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { SvcUser } from '../../entities/user.entity.js';
import { AuditLog } from '../../audit-log/audit-log.js';
import { HookRunner } from '../../hooks/hook-runner.js';
import { UnitOfWork } from '../../persistence/unit-of-work.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import { UserStore } from '../../users/user-store.js';
import { JwtCredentialResolver } from './jwt-credential.resolver.js';
import { RefreshTokenStore } from './refresh-token-store.js';

/**
 * POST /logout of the jwt strategy: revokes the family of the refresh cookie and the family (`sid`)
 * of a valid bearer token, whichever are presented (docs/decisions/0013-refresh-tokens-jwt.md). Presenting a credential proves
 * the right to end it; an invalid bearer token ends nothing.
 */
@Injectable()
export class JwtLogout {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly refreshTokens: RefreshTokenStore,
    private readonly users: UserStore,
    private readonly resolver: JwtCredentialResolver,
    private readonly hooks: HookRunner,
    private readonly serializer: UserSerializer,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Runs `beforeLogout` (unless the route ran it: `runHook` false), then revokes; returns the ids of
   * the users whose family this ended.
   */
  async logout(request: Request, refreshToken: string | undefined, runHook = true): Promise<string[]> {
    const { presented, bearer, owner } = await this.presentedCredentials(request, refreshToken);
    if (runHook) await this.hooks.run('beforeLogout', { user: owner && this.serializer.serialize(owner) }, request);

    const families = new Map<string, string>();
    if (presented) families.set(presented.familyId, presented.userId);
    if (bearer?.familyId) families.set(bearer.familyId, bearer.user.id);
    if (families.size === 0) return [];
    return this.unitOfWork.transaction(async (manager) => {
      const ended = new Set<string>();
      for (const [familyId, userId] of families) {
        if ((await this.refreshTokens.revokeFamily(manager, familyId)) > 0) ended.add(userId);
      }
      for (const userId of ended) await this.audit.record(manager, { action: 'logout', userId, request });
      return [...ended];
    });
  }

  /** The user the presented credentials belong to, or null: what `beforeLogout` sees. */
  async ownerOf(request: Request, refreshToken: string | undefined): Promise<SvcUser | null> {
    return (await this.presentedCredentials(request, refreshToken)).owner;
  }

  private async presentedCredentials(request: Request, refreshToken: string | undefined) {
    const presented = refreshToken ? await this.unitOfWork.autocommit((manager) => this.refreshTokens.findByToken(manager, refreshToken)) : null;
    const bearer = request.headers.authorization ? await this.resolver.tryResolve(request) : null;
    const owner = bearer?.user ?? (presented ? await this.unitOfWork.autocommit((manager) => this.users.findById(manager, presented.userId)) : null);
    return { presented, bearer, owner };
  }
}
