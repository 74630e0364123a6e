import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import { CREDENTIAL_REVOKER } from '../credentials/credential.tokens.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import type { ForgotPasswordPayload, ResetPasswordPayload } from '../hooks/auth-hooks.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { AuditLog } from '../audit-log/audit-log.js';
import type { CredentialRevoker } from '../credentials/credential-revoker.js';
import { normalizeEmail } from '../users/email.js';
import { voidPendingEmailChanges } from '../users/pending-email-changes.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { UserStore } from '../users/user-store.js';
import { AfterResponse } from '../events/after-response.js';
import { AccountMessageLimit } from '../rate-limit/account-messages.js';
import { resetLink } from '../email/email-links.js';
import { EmailVerification } from '../email/email-verification.service.js';
import { SecurityNotices } from '../notices/security-notices.js';
import { PasswordHasher } from './password-hasher.js';
import { ResetTokenStore, type IssuedResetToken } from './reset-token-store.js';

/** forgot-password and reset-password, shared by the session and jwt strategies (docs/decisions/0014-password-recovery.md). */
@Injectable()
export class PasswordRecovery {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    @Inject(CREDENTIAL_REVOKER) private readonly revoker: CredentialRevoker,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly tokens: ResetTokenStore,
    private readonly hasher: PasswordHasher,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
    private readonly afterResponse: AfterResponse,
    private readonly messageLimit: AccountMessageLimit,
    private readonly verification: EmailVerification,
    private readonly notices: SecurityNotices,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Answers before looking the email up, so known, unknown and inactive emails get the same
   * response in the same time (OWASP Forgot Password Cheat Sheet: consistent response and time,
   * by asynchronous processing). The token is stored and announced after the response, and only
   * within the account's limit of messages: past it, the answer was the same 202 and nothing is
   * sent this window (OWASP Authentication Cheat Sheet, "Account Lockout": no lockout by strangers).
   */
  requestReset(payload: ForgotPasswordPayload, request: Request): void {
    const email = normalizeEmail(payload.email);
    this.afterResponse.run(request, 'forgot-password', async () => {
      const withinLimit = await this.messageLimit.admits(request, email);
      const issued = await this.issueResetToken(email, withinLimit);
      if (!issued) return;
      const { user, token, expiresAt } = issued;
      this.events.publishAfterResponse(request, AuthEvent.PasswordResetRequested, { user: this.serializer.serialize(user), token, link: resetLink(this.config, token), expiresAt });
    });
  }

  /**
   * Stores a new token for an active user, superseding older ones, in one transaction. Unknown
   * and inactive emails, and any email past its limit, run the same statements against an id no
   * row has: the work left behind (and so the delay it causes to the requests that follow) does
   * not tell them apart, and a request past the limit leaves the user's token as it was.
   */
  private async issueResetToken(email: string, withinLimit: boolean): Promise<({ user: SvcUser } & IssuedResetToken) | null> {
    const found = await this.unitOfWork.autocommit((manager) => this.users.findByEmailEvenly(manager, email));
    const userId = withinLimit && found?.isActive ? found.id : randomUUID();
    const issued = await this.unitOfWork.transaction(async (manager) => {
      await this.users.lockRow(manager, userId);
      await this.tokens.discardAllOfUser(manager, userId);
      return this.tokens.issueIfActive(manager, userId, email);
    });
    return issued && found ? { user: found, ...issued } : null;
  }

  /**
   * The message forgot-password sends, to this user, asked for by an administrator or the
   * application's own code (docs/guides/administration.md): a new token superseding older ones, and
   * `svc.password.reset_requested`. An inactive user gets none (a reset would not let them in);
   * false then. Outside a request, the observers have run when it resolves.
   */
  async sendResetTo(userId: string, request?: Request): Promise<boolean> {
    const issued = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.users.lockById(manager, userId);
      if (!user?.isActive) return null;
      await this.tokens.discardAllOfUser(manager, user.id);
      const token = await this.tokens.issueIfActive(manager, user.id, user.email);
      return token && { user, ...token };
    });
    if (!issued) return false;
    const { user, token, expiresAt } = issued;
    await this.events.publish(request, AuthEvent.PasswordResetRequested, { user: this.serializer.serialize(user), token, link: resetLink(this.config, token), expiresAt });
    return true;
  }

  /**
   * Consumes the token, sets the new password and ends every credential of the user, in one
   * transaction; no credential is issued (no automatic login). OWASP Forgot Password Cheat Sheet:
   * single-use token, sessions invalidated after the reset; pending changes of email void. The email
   * is verified too (the link reached its mailbox): a first proof reclaims the account (`AccountReclaim`).
   */
  async resetPassword(payload: ResetPasswordPayload, request: Request): Promise<void> {
    const token = payload.token.reveal();
    // Checked before bcrypt: a guessed token costs no hashing.
    const usable = await this.unitOfWork.autocommit(async (manager) => {
      const row = await this.tokens.findUsable(manager, token);
      const user = row && (await this.users.findById(manager, row.userId));
      return row && user?.isActive ? row : null;
    });
    if (!usable) throw new AuthError('RESET_TOKEN_INVALID');
    // Hash outside the transaction: bcrypt must not hold a connection or SQLite's turn.
    const passwordHash = await this.hasher.hash(payload.password.reveal());
    const at = this.clock.now();
    const { userId, user, reclaimed } = await this.unitOfWork.transaction(async (manager) => {
      // The user row first, as forgot-password, change-password and login lock it: one lock order, no deadlock.
      const user = await this.users.lockById(manager, usable.userId);
      // An inactive user's token is refused (and stays unused): deactivation must not be undone by mail.
      if (!user?.isActive) throw new AuthError('RESET_TOKEN_INVALID');
      if (!(await this.tokens.consume(manager, usable.id))) throw new AuthError('RESET_TOKEN_INVALID');
      await this.users.setPasswordHash(manager, user.id, passwordHash);
      await this.tokens.discardUnusedOfUser(manager, user.id);
      await this.revoker.revokeAllOfUser(manager, user.id);
      // OWASP ASVS 5.0 V6: recovery spends a change of email asked for before it.
      await voidPendingEmailChanges(manager, user.id);
      await this.audit.record(manager, { action: 'password_reset', userId: user.id, request });
      const reclaimed = await this.verification.verifyByReset(manager, user, at);
      await this.verification.recordReclaimed(manager, request, reclaimed);
      return { userId: user.id, user, reclaimed };
    });
    this.events.publishAfterResponse(request, AuthEvent.PasswordChanged, { userId, at });
    this.notices.notify(request, reclaimed?.user ?? user, 'password_changed');
    if (reclaimed) this.verification.announceReclaimed(request, reclaimed, at);
  }
}
