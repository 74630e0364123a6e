import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../../auth.constants.js';
import type { Clock } from '../../clock.js';
import type { AuthConfig } from '../../config/auth-config.js';
import type { Principal } from '../../credentials/credential-resolver.js';
import type { SvcUser } from '../../entities/user.entity.js';
import { AuthError } from '../../errors/auth.error.js';
import { AuthEvent } from '../../events/auth-events.js';
import { AuthEventPublisher } from '../../events/auth-event-publisher.js';
import { HookRunner } from '../../hooks/hook-runner.js';
import { UnitOfWork } from '../../persistence/unit-of-work.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import { UserStore } from '../../users/user-store.js';
import { verificationLink } from './email-links.js';
import { EmailTokenStore } from './email-token-store.js';

/**
 * Email verification (README, "Verifying emails and changing them"): a mailed single-use link proves
 * the user receives mail at their email (OWASP Authentication Cheat Sheet; ASVS 2.5: tokens random,
 * stored hashed, expiring, single use). Signup sends the first message, `POST /send-verification` a
 * new one (superseding the older), `POST /verify-email` uses one.
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
  ) {}

  /** Whether a password login of this user is refused until the email is verified. */
  blocksLogin(user: SvcUser): boolean {
    return this.config.emailVerification?.required === true && user.emailVerifiedAt === null;
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
   * verification tokens discarded. Unknown, expired, used and superseded tokens, and an inactive
   * user's, are 400 `VERIFICATION_TOKEN_INVALID`.
   */
  async verify(token: string, request: Request): Promise<void> {
    const usable = await this.unitOfWork.autocommit((manager) => this.tokens.findUsable(manager, token, 'verify'));
    if (!usable) throw new AuthError('VERIFICATION_TOKEN_INVALID');
    const at = this.clock.now();
    const verified = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.users.lockById(manager, usable.userId);
      if (!user?.isActive) throw new AuthError('VERIFICATION_TOKEN_INVALID');
      if (!(await this.tokens.consume(manager, usable.id))) throw new AuthError('VERIFICATION_TOKEN_INVALID');
      await this.tokens.discardUnusedOfUser(manager, user.id, 'verify');
      return this.users.markEmailVerified(manager, user.id, at);
    });
    if (verified) this.events.publishAfterResponse(request, AuthEvent.EmailVerified, { userId: usable.userId, at });
  }

  /**
   * A password reset (the link reached the user's mailbox) also verifies the email, when
   * verification is on: the way in for a user whose first message was lost and who, under
   * `required`, cannot log in to ask for another. In the reset's transaction; true when it changed.
   */
  async verifyByReset(manager: EntityManager, userId: string, at: Date): Promise<boolean> {
    if (!this.config.emailVerification) return false;
    await this.tokens.discardUnusedOfUser(manager, userId, 'verify');
    return this.users.markEmailVerified(manager, userId, at);
  }

  announceVerified(request: Request, userId: string, at: Date): void {
    this.events.publishAfterResponse(request, AuthEvent.EmailVerified, { userId, at });
  }
}
