import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AuditLog } from '../audit-log/audit-log.js';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import { CREDENTIAL_REVOKER } from '../credentials/credential.tokens.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Principal } from '../credentials/credential-resolver.js';
import type { CredentialRevoker } from '../credentials/credential-revoker.js';
import { constantTimeEqual } from '../crypto/opaque-token.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import type { ChangeEmailPayload } from '../hooks/auth-hooks.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { normalizeEmail } from '../users/email.js';
import { voidPendingEmailChanges } from '../users/pending-email-changes.js';
import { mixedScriptProblem } from '../users/mixed-script.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { UserStore } from '../users/user-store.js';
import { cancellationLink, confirmationLink } from './email-links.js';
import { EmailTokenStore } from './email-token-store.js';
import { PasswordCheck, UnusedResetLinks } from './password-method.js';

/**
 * Change of email (docs/guides/email.md). OWASP Authentication Cheat Sheet,
 * "Changing A User's Registered Email Address": the current password is asked again, the new
 * address confirms with a single-use, expiring link before anything changes, and the old address
 * is told, with a link that cancels the change. A taken new address answers as any other (no
 * enumeration) and gets a notice instead.
 */
@Injectable()
export class EmailChange {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    @Inject(CREDENTIAL_REVOKER) private readonly revoker: CredentialRevoker,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly tokens: EmailTokenStore,
    private readonly resetTokens: UnusedResetLinks,
    private readonly hasher: PasswordCheck,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Checks the password (bcrypt, outside any transaction, as at login), then stores a `change`
   * token naming the new address and the credential that asked, superseding the older. The same
   * statements run whether or not the address is taken; only the messages differ.
   */
  async request(principal: Principal, payload: ChangeEmailPayload, request: Request): Promise<void> {
    const newEmail = normalizeEmail(payload.newEmail);
    if (newEmail === principal.user.email) throw new AuthError('VALIDATION_FAILED', { message: ["newEmail is already the account's email"] });
    // UTS #39 §5.2, as at signup: a property of the address alone, so saying it reveals no account.
    const mixed = mixedScriptProblem(newEmail);
    if (mixed) throw new AuthError('VALIDATION_FAILED', { message: [`newEmail: ${mixed}`] });
    const verifiedHash = principal.user.passwordHash;
    // A user without a password (created by a provider) costs the same comparison and is refused alike.
    if (!(await this.hasher.verify(payload.password.reveal(), verifiedHash)) || verifiedHash === null) throw new AuthError('INVALID_CREDENTIALS');
    const { user, token, cancelToken, taken } = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.users.lockById(manager, principal.user.id);
      if (!user?.isActive) throw new AuthError('UNAUTHENTICATED');
      // A reset or a change of password committed while bcrypt ran: the password checked is no longer known to be the user's.
      if (user.passwordHash === null || !constantTimeEqual(user.passwordHash, verifiedHash)) throw new AuthError('INVALID_CREDENTIALS');
      const taken = await this.users.isTakenByAnother(manager, newEmail, user.id);
      const requestedBy = principal.sessionId ?? principal.familyId ?? null;
      const token = await this.tokens.issue(manager, user.id, 'change', { newEmail, requestedBy });
      return { user, taken, token, cancelToken: await this.tokens.issue(manager, user.id, 'cancel') };
    });
    const body = this.serializer.serialize(user);
    this.events.publishAfterResponse(request, AuthEvent.EmailChangeNotice, { user: body, to: user.email, reason: 'change_requested', token: cancelToken, link: cancellationLink(this.config, cancelToken) });
    if (taken) this.events.publishAfterResponse(request, AuthEvent.EmailChangeNotice, { user: body, to: newEmail, reason: 'address_taken' });
    else this.events.publishAfterResponse(request, AuthEvent.EmailChangeRequested, { user: body, newEmail, token, link: confirmationLink(this.config, token) });
  }

  /**
   * Uses a `change` token, with or without a credential (it is a mailed link), in one transaction:
   * the email switches to the new address, verified (the unique indexes settle a race with a signup
   * of it: 409 `EMAIL_ALREADY_REGISTERED`, nothing changed, the token still unused); links mailed to
   * the old address (reset, verification, other changes) stop working; every credential of the user
   * but the one that asked is ended (OWASP Session Management Cheat Sheet: renew after a change of
   * identity data).
   */
  async confirm(token: string, request: Request): Promise<void> {
    const usable = await this.unitOfWork.autocommit((manager) => this.tokens.findUsable(manager, token, 'change'));
    if (!usable?.newEmail) throw new AuthError('VERIFICATION_TOKEN_INVALID');
    const newEmail = usable.newEmail;
    const at = this.clock.now();
    const from = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.users.lockById(manager, usable.userId);
      if (!user?.isActive) throw new AuthError('VERIFICATION_TOKEN_INVALID');
      if (!(await this.tokens.consume(manager, usable.id))) throw new AuthError('VERIFICATION_TOKEN_INVALID');
      await this.users.switchEmail(manager, user.id, newEmail, at);
      await this.tokens.discardUnusedOfUser(manager, user.id);
      await this.resetTokens.discardUnusedOfUser(manager, user.id);
      await this.revoker.revokeAllOfUserExcept(manager, user.id, usable.requestedBy);
      await this.audit.record(manager, { action: 'email_changed', userId: user.id, request, details: { from: user.email, to: newEmail } });
      return user.email;
    });
    this.events.publishAfterResponse(request, AuthEvent.EmailChanged, { userId: usable.userId, from, to: newEmail, at });
  }

  /**
   * Uses the cancel link of a notice to the old address, with or without a credential (it is a mailed
   * link), in one transaction: every pending change of email is void and every credential of the
   * user ends (whoever asked for the change may hold one). Unknown, expired and used tokens, and an
   * inactive user's, are 400 `VERIFICATION_TOKEN_INVALID`.
   */
  async cancel(token: string, request: Request): Promise<void> {
    const usable = await this.unitOfWork.autocommit((manager) => this.tokens.findUsable(manager, token, 'cancel'));
    if (!usable) throw new AuthError('VERIFICATION_TOKEN_INVALID');
    const at = this.clock.now();
    await this.unitOfWork.transaction(async (manager) => {
      const user = await this.users.lockById(manager, usable.userId);
      if (!user?.isActive) throw new AuthError('VERIFICATION_TOKEN_INVALID');
      if (!(await this.tokens.consume(manager, usable.id))) throw new AuthError('VERIFICATION_TOKEN_INVALID');
      // OWASP Authentication Cheat Sheet, "Changing A User's Registered Email Address": the old address can stop the change; ASVS 5.0 V6.
      await voidPendingEmailChanges(manager, user.id);
      await this.revoker.revokeAllOfUser(manager, user.id);
    });
    this.events.publishAfterResponse(request, AuthEvent.EmailChangeCancelled, { userId: usable.userId, at });
  }
}
