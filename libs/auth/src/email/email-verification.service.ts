import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import { CREDENTIAL_RESOLVER } from '../credentials/credential.tokens.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { CredentialResolver, Principal } from '../credentials/credential-resolver.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { HookRunner } from '../hooks/hook-runner.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { AuditLog } from '../audit-log/audit-log.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { SecurityNotices } from '../notices/security-notices.js';
import { UserStore } from '../users/user-store.js';
import { AccountReclaim, type ReclaimedWaysIn } from './account-reclaim.js';
import { verificationLink } from './email-links.js';
import { EmailTokenStore } from './email-token-store.js';

/** Whether a password login (and a signup's credential) waits for a verified email: `emailVerification.required`. */
export function loginWaitsForVerification(config: AuthConfig): boolean {
  return config.emailVerification?.required === true;
}

/**
 * Email verification (docs/guides/email.md): a mailed single-use link proves
 * the user receives mail at their email (OWASP Authentication Cheat Sheet; ASVS 2.5: tokens random,
 * stored hashed, expiring, single use). Signup sends the first message, `POST /send-verification` a
 * new one (superseding the older), `POST /verify-email` uses one; the first proof of the mailbox
 * reclaims the account (docs/decisions/0022-account-pre-hijacking.md).
 */
@Injectable()
export class EmailVerification {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly tokens: EmailTokenStore,
    private readonly hooks: HookRunner,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
    private readonly reclaim: AccountReclaim,
    @Inject(CREDENTIAL_RESOLVER) private readonly credentials: CredentialResolver,
    private readonly notices: SecurityNotices,
    private readonly audit: AuditLog,
  ) {}

  /** Whether a password login of this user is refused until the email is verified. */
  blocksLogin(user: SvcUser): boolean {
    return loginWaitsForVerification(this.config) && user.emailVerifiedAt === null;
  }

  /** In the signup's transaction: the new user's verification token, when verification is on. */
  async stageAtSignup(manager: EntityManager, user: SvcUser): Promise<string | undefined> {
    return this.config.emailVerification ? this.tokens.issue(manager, user.id, 'verify') : undefined;
  }

  /** After the transaction that stored `token`: the message the application mails. */
  announce(request: Request, user: SvcUser, token: string): void {
    this.events.publishAfterResponse(request, AuthEvent.EmailVerificationRequested, { user: this.serializer.serialize(user), token, link: verificationLink(this.config, token) });
  }

  /** A new message for the signed-in user, superseding the older; 409 when there is nothing to verify. */
  async sendAgain(principal: Principal, request: Request): Promise<void> {
    if (principal.user.emailVerifiedAt !== null) throw new AuthError('EMAIL_ALREADY_VERIFIED');
    await this.hooks.run('beforeSendVerification', { user: principal.body }, request);
    const { user, token } = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.users.lockById(manager, principal.user.id);
      if (!user?.isActive) throw new AuthError('UNAUTHENTICATED');
      if (user.emailVerifiedAt !== null) throw new AuthError('EMAIL_ALREADY_VERIFIED');
      return { user, token: await this.tokens.issue(manager, user.id, 'verify') };
    });
    this.announce(request, user, token);
  }

  /**
   * Uses a verification token: the email is verified, the token spent, the user's other unused
   * verification tokens discarded, and the account reclaimed (`AccountReclaim`): every other
   * credential of the user ends, the request's own stays. Unknown, expired, used and superseded
   * tokens, and an inactive user's, are 400 `VERIFICATION_TOKEN_INVALID`.
   */
  async verify(token: string, request: Request, response: Response): Promise<void> {
    const usable = await this.unitOfWork.autocommit((manager) => this.tokens.findUsable(manager, token, 'verify'));
    if (!usable) throw new AuthError('VERIFICATION_TOKEN_INVALID');
    const own = await this.ownCredential(request, response);
    const at = this.clock.now();
    const reclaimed = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.users.lockById(manager, usable.userId);
      if (!user?.isActive) throw new AuthError('VERIFICATION_TOKEN_INVALID');
      if (!(await this.tokens.consume(manager, usable.id))) throw new AuthError('VERIFICATION_TOKEN_INVALID');
      await this.tokens.discardUnusedOfUser(manager, user.id, 'verify');
      const kept = own && own.user.id === user.id ? (own.sessionId ?? own.familyId ?? null) : null;
      const reclaimed = await this.reclaim.proveMailbox(manager, user, at, kept);
      await this.recordReclaimed(manager, request, reclaimed);
      return reclaimed;
    });
    if (reclaimed) this.announceReclaimed(request, reclaimed, at);
  }

  /**
   * The first proof of the mailbox by a password reset (the link reached the mailbox), in the reset's
   * transaction, in every mode: with verification off too, what was added before it is removed.
   * Null when the email was verified already.
   */
  verifyByReset(manager: EntityManager, user: SvcUser, at: Date): Promise<{ user: SvcUser; removed: ReclaimedWaysIn } | null> {
    return this.reclaim.proveMailbox(manager, user, at, null);
  }

  /** In the proof's transaction: its activity entries, as its events say it (`email_verified` with verification on). */
  async recordReclaimed(manager: EntityManager, request: Request, reclaimed: { user: SvcUser; removed: ReclaimedWaysIn } | null): Promise<void> {
    if (!reclaimed) return;
    const userId = reclaimed.user.id;
    if (this.config.emailVerification) await this.audit.record(manager, { action: 'email_verified', userId, request });
    await this.audit.record(manager, { action: 'account_reclaimed', userId, request, details: { ...reclaimed.removed } });
  }

  /** After the proof's transaction: `svc.email.verified` (verification on) and `svc.account.reclaimed`. */
  announceReclaimed(request: Request, reclaimed: { user: SvcUser; removed: ReclaimedWaysIn }, at: Date): void {
    if (this.config.emailVerification) this.events.publishAfterResponse(request, AuthEvent.EmailVerified, { userId: reclaimed.user.id, at });
    this.events.publishAfterResponse(request, AuthEvent.AccountReclaimed, { user: this.serializer.serialize(reclaimed.user), removed: reclaimed.removed });
    this.notices.notify(request, reclaimed.user, 'account_reclaimed');
  }

  /**
   * The credential the proving request carries, if any (a mailed link opened in the browser the user
   * is signed in with): it stays. One the resolver refuses is no credential; failing closed, every
   * credential of the user then ends.
   */
  private async ownCredential(request: Request, response: Response): Promise<Principal | null> {
    try {
      return await this.credentials.resolve(request, response);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      response.removeHeader('WWW-Authenticate');
      return this.credentials.resolveFromCookie(request).catch((refused: unknown) => {
        if (refused instanceof AuthError) return null;
        throw refused;
      });
    }
  }
}
