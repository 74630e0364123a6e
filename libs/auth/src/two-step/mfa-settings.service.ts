import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { AuditLog } from '../audit-log/audit-log.js';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Principal } from '../credentials/credential-resolver.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent, type MfaFailureEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { SecurityNotices } from '../notices/security-notices.js';
import { HookRunner } from '../hooks/hook-runner.js';
import { clientAddressOf } from '../http/client-address.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { UnprovenMailbox } from '../users/unproven-mailbox.js';
import { UserStore } from '../users/user-store.js';
import { PasswordHasher } from '../password/password-hasher.js';
import { type MfaAnswer, type MfaProofFailure, MfaProofs } from './mfa-proof.js';
import { MfaTotpStore } from './mfa-totp.store.js';
import { RecoveryCodeStore } from './recovery-code.store.js';
import { TotpCodes } from './totp-codes.js';
import { TotpSecretCipher } from './totp-secret.cipher.js';

/** The answer of a setup: what the authenticator app needs, shown this once. */
export interface TotpSetupBody {
  secret: string;
  otpauthUrl: string;
  qrSvg: string;
}

/**
 * A signed-in user's two-step settings (docs/guides/two-step.md): setup (password), enable (a first
 * code; the recovery codes), disable and new recovery codes (password and a code). Each change runs
 * in one transaction under the user's row lock, so two concurrent enables cannot both win, and
 * `users.mfa_totp_enabled` changes with `mfa_totp`.
 */
@Injectable()
export class MfaSettings {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly hasher: PasswordHasher,
    private readonly hooks: HookRunner,
    private readonly events: AuthEventPublisher,
    private readonly totpRows: MfaTotpStore,
    private readonly recoveryCodes: RecoveryCodeStore,
    private readonly proofs: MfaProofs,
    private readonly cipher: TotpSecretCipher,
    private readonly totp: TotpCodes,
    private readonly mailbox: UnprovenMailbox,
    private readonly notices: SecurityNotices,
    private readonly audit: AuditLog,
  ) {}

  /** A new pending secret (replacing a pending one); nothing changes for logins until it is enabled. 403 before the email is verified. */
  async setup(principal: Principal, password: string): Promise<TotpSetupBody> {
    this.mailbox.refuseNewWayIn(principal.user);
    await this.checkPassword(principal.user, password);
    const secret = this.totp.newSecret();
    await this.unitOfWork.transaction(async (manager) => {
      const user = await this.lockedUser(manager, principal);
      this.mailbox.refuseAfterReclaim(principal.user, user);
      if (user.mfaTotpEnabled) throw new AuthError('MFA_ALREADY_ENABLED');
      await this.totpRows.savePending(manager, user.id, this.cipher.seal(secret, user.id), this.clock.now());
    });
    const otpauthUrl = this.totp.otpauthUrl(secret, principal.user.email);
    return { secret: this.totp.base32Of(secret), otpauthUrl, qrSvg: await this.totp.qrSvg(otpauthUrl) };
  }

  /** `beforeMfaEnable` first; then a code of the pending secret turns it on and gives the ten recovery codes. */
  async enable(principal: Principal, code: string, request: Request): Promise<{ recoveryCodes: string[] }> {
    this.mailbox.refuseNewWayIn(principal.user);
    await this.hooks.run('beforeMfaEnable', { user: principal.body }, request);
    const at = this.clock.now();
    const recoveryCodes = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.lockedUser(manager, principal);
      this.mailbox.refuseAfterReclaim(principal.user, user);
      if (user.mfaTotpEnabled) throw new AuthError('MFA_ALREADY_ENABLED');
      const row = await this.totpRows.find(manager, user.id);
      if (!row || row.enabledAt) throw new AuthError('MFA_SETUP_REQUIRED');
      const step = this.totp.matchingStep(this.cipher.open({ ciphertext: row.secretCiphertext, keyId: row.keyId }, user.id), code, at);
      if (step === null || !(await this.totpRows.enable(manager, user.id, step, at))) return null;
      await this.users.setMfaTotpEnabled(manager, user.id, true);
      await this.audit.record(manager, { action: 'two_step_enabled', userId: user.id, request, details: { method: 'totp' } });
      return this.recoveryCodes.replaceAll(manager, user.id, at);
    });
    if (!recoveryCodes) this.refuse(request, principal, 'enable', { method: 'totp', reason: 'wrong_code' });
    this.events.publishAfterResponse(request, AuthEvent.MfaEnabled, { userId: principal.user.id, at });
    return { recoveryCodes };
  }

  /** Turns two-step login off: the secret and every recovery code deleted. */
  async disable(principal: Principal, password: string, answer: MfaAnswer, request: Request): Promise<void> {
    await this.checkPassword(principal.user, password);
    const at = this.clock.now();
    await this.withProof(principal, answer, request, 'disable', async (manager, userId) => {
      await this.totpRows.remove(manager, userId);
      await this.recoveryCodes.removeAll(manager, userId);
      await this.users.setMfaTotpEnabled(manager, userId, false);
      await this.audit.record(manager, { action: 'two_step_disabled', userId, request, details: { method: 'totp' } });
    });
    this.events.publishAfterResponse(request, AuthEvent.MfaDisabled, { userId: principal.user.id, at });
    this.notices.notify(request, { ...principal.user, mfaTotpEnabled: false }, 'two_step_disabled');
  }

  /** Ten new recovery codes; every earlier one stops working. */
  async regenerate(principal: Principal, password: string, answer: MfaAnswer, request: Request): Promise<{ recoveryCodes: string[] }> {
    await this.checkPassword(principal.user, password);
    const recoveryCodes = await this.withProof(principal, answer, request, 'regenerate', (manager, userId) => this.recoveryCodes.replaceAll(manager, userId, this.clock.now()));
    return { recoveryCodes };
  }

  /** Runs `change` once the second factor is proven, in its transaction; a wrong one changes nothing. */
  private async withProof<T>(
    principal: Principal,
    answer: MfaAnswer,
    request: Request,
    step: MfaFailureEvent['step'],
    change: (manager: EntityManager, userId: string) => Promise<T>,
  ): Promise<T> {
    const outcome = await this.unitOfWork.transaction(async (manager): Promise<{ proven: true; result: T } | { proven: false; failure: MfaProofFailure }> => {
      const user = await this.lockedUser(manager, principal);
      if (!user.mfaTotpEnabled) throw new AuthError('MFA_NOT_ENABLED');
      const proof = await this.proofs.check(manager, user.id, answer, this.clock.now());
      if (!proof.proven) return { proven: false, failure: proof };
      return { proven: true, result: await change(manager, user.id) };
    });
    if (!outcome.proven) this.refuse(request, principal, step, outcome.failure);
    return outcome.result;
  }

  /** OWASP Multifactor Authentication Cheat Sheet: changing or turning off a factor asks for the current password. */
  private async checkPassword(user: SvcUser, password: string): Promise<void> {
    if (!(await this.hasher.verify(password, user.passwordHash))) throw new AuthError('CURRENT_PASSWORD_INVALID');
  }

  private async lockedUser(manager: EntityManager, principal: Principal): Promise<SvcUser> {
    const user = await this.users.lockById(manager, principal.user.id);
    // Deactivated meanwhile: signed out, as the guard would say at the next request.
    if (!user?.isActive) throw new AuthError('UNAUTHENTICATED');
    return user;
  }

  private refuse(request: Request, principal: Principal, step: MfaFailureEvent['step'], failure: Pick<MfaFailureEvent, 'method' | 'reason'>): never {
    this.events.publishAfterResponse(request, AuthEvent.MfaFailure, {
      userId: principal.user.id,
      step,
      method: failure.method,
      reason: failure.reason,
      ip: clientAddressOf(request, this.config),
      at: this.clock.now(),
    });
    throw new AuthError('MFA_CODE_INVALID');
  }
}
