import { Inject, Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { AuditLog } from '../audit-log/audit-log.js';
import { AUTH_CLOCK } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { isUniqueViolation } from '../persistence/unique-violation.js';
import { normalizeEmail } from '../users/email.js';
import { UnprovenMailbox } from '../users/unproven-mailbox.js';
import { UserStore } from '../users/user-store.js';
import { OAuthAccountStore } from './oauth-account.store.js';
import { normalisesToTheVerifiedAddress } from './verified-email.js';
import type { OAuthMethod } from '../config/login-methods.js';
import type { OAuthUserInfo } from '../config/oauth-options.js';
import { LoginCompletion, type StagedLogin } from '../login/login-completion.js';

/**
 * Finds or creates the user of a provider identity and issues its credential, in one transaction
 * (docs/guides/oauth2.md). The account rules fail closed (docs/guides/oauth2.md):
 * - a linked identity logs its user in; an inactive user is 403, a missing one (orphaned link) 401;
 * - an unknown identity creates a user and its link only from a verified email no user holds, that
 *   normalising leaves the address the provider verified;
 * - an email that a user already holds is 409: an OAuth login never takes an account over by email.
 */
@Injectable()
export class OAuthAccounts {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly accounts: OAuthAccountStore,
    private readonly completion: LoginCompletion,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly mailbox: UnprovenMailbox,
    private readonly audit: AuditLog,
  ) {}

  /** `columns`: the application's columns of a user this login creates (already checked by the signup rules). */
  async resolveAndIssue(method: OAuthMethod, info: OAuthUserInfo, columns: Record<string, unknown>, request: Request): Promise<StagedLogin> {
    try {
      return await this.unitOfWork.transaction((manager) => this.resolve(manager, method, info, columns, request));
    } catch (error) {
      if (!isLostCreationRace(error)) throw error;
      // A concurrent first login of the same identity created the user and its link: log into it.
      return this.unitOfWork.transaction((manager) => this.resolve(manager, method, info, columns, request));
    }
  }

  private async resolve(manager: EntityManager, method: OAuthMethod, info: OAuthUserInfo, columns: Record<string, unknown>, request: Request): Promise<StagedLogin> {
    const link = await this.accounts.findLink(manager, info.provider, info.providerUserId);
    const user = link ? await this.linkedUser(manager, link.userId) : await this.firstLogin(manager, info, columns);
    return this.completion.stage(manager, user, request, { method, provider: info.provider });
  }

  /**
   * Links the identity to `userId`, the signed-in user who started the link flow (docs/guides/linking.md): no email rule applies, the user vouches for the identity. Refused: a user whose email
   * is not verified (403 EMAIL_NOT_VERIFIED, docs/decisions/0022-account-pre-hijacking.md), an identity
   * another user holds (409 OAUTH_ACCOUNT_LINKED_ELSEWHERE), a second identity at a provider the
   * user already has one at (409 OAUTH_PROVIDER_ALREADY_LINKED). True when a link was written,
   * false when this very identity was linked to the user already.
   */
  async link(info: OAuthUserInfo, linking: SvcUser, request?: Request): Promise<{ user: SvcUser; linked: boolean }> {
    try {
      return await this.unitOfWork.transaction((manager) => this.linkIn(manager, info, linking, request));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // A concurrent login or link wrote this identity first: decide against what it wrote.
      return this.unitOfWork.transaction((manager) => this.linkIn(manager, info, linking, request));
    }
  }

  private async linkIn(manager: EntityManager, info: OAuthUserInfo, linking: SvcUser, request: Request | undefined): Promise<{ user: SvcUser; linked: boolean }> {
    const userId = linking.id;
    // The user's row first, as every change of a user's ways in locks it: one unlink and one link never interleave.
    const user = await this.users.lockById(manager, userId);
    if (!user) throw new AuthError('UNAUTHENTICATED');
    if (!user.isActive) throw new AuthError('USER_INACTIVE');
    this.mailbox.refuseAfterReclaim(linking, user);
    const existing = await this.accounts.findLink(manager, info.provider, info.providerUserId);
    if (existing) {
      if (existing.userId !== userId) throw new AuthError('OAUTH_ACCOUNT_LINKED_ELSEWHERE');
      return { user, linked: false };
    }
    if ((await this.accounts.findOfUser(manager, userId)).some((account) => account.provider === info.provider)) throw new AuthError('OAUTH_PROVIDER_ALREADY_LINKED');
    const email = info.email === null ? null : normalizeEmail(info.email);
    await this.accounts.link(manager, { provider: info.provider, providerUserId: info.providerUserId, userId, email, createdAt: this.clock.now() });
    await this.audit.record(manager, { action: 'identity_linked', userId, request, details: { provider: info.provider } });
    return { user, linked: true };
  }

  private async linkedUser(manager: EntityManager, userId: string): Promise<SvcUser> {
    const user = await this.users.lockById(manager, userId);
    if (!user) throw new AuthError('OAUTH_ACCOUNT_ORPHANED');
    if (!user.isActive) throw new AuthError('USER_INACTIVE');
    return user;
  }

  /** An identity with no link yet: a new user from its verified email, unless a user holds that email. */
  private async firstLogin(manager: EntityManager, info: OAuthUserInfo, columns: Record<string, unknown>): Promise<SvcUser> {
    const email = info.email === null ? null : normalizeEmail(info.email);
    if (info.email === null || email === null || !isEmail(email)) throw new AuthError('OAUTH_EMAIL_MISSING');
    // An unverified email would let anyone pre-claim someone else's address; so would a verified
    // one that normalising turns into another address (`ＡＬＩＣＥ@x.io` is not alice@x.io's mailbox).
    if (!info.emailVerified || !normalisesToTheVerifiedAddress(info.email)) throw new AuthError('OAUTH_EMAIL_UNVERIFIED');
    if (await this.users.findByEmailOrLookalike(manager, email)) {
      // Each statement reads what was committed before it (PostgreSQL READ COMMITTED): a concurrent
      // first login of this identity may have committed the user and its link since the first look.
      const link = await this.accounts.findLink(manager, info.provider, info.providerUserId);
      if (link) return this.linkedUser(manager, link.userId);
      throw new AuthError('OAUTH_ACCOUNT_NOT_LINKED');
    }
    // The provider verified this very address (docs/guides/email.md).
    const user = await this.users.insert(manager, { ...columns, email, passwordHash: null, emailVerifiedAt: this.clock.now() });
    await this.accounts.link(manager, { provider: info.provider, providerUserId: info.providerUserId, userId: user.id, email, createdAt: this.clock.now() });
    return user;
  }
}

/** The loser of two concurrent first logins: its user or its link hit a unique constraint. */
function isLostCreationRace(error: unknown): boolean {
  return (error instanceof AuthError && error.code === 'EMAIL_ALREADY_REGISTERED') || isUniqueViolation(error);
}
