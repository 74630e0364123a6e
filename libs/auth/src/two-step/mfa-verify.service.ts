import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuditLog } from '../audit-log/audit-log.js';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import { constantTimeEqual } from '../crypto/opaque-token.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { clientAddressOf } from '../http/client-address.js';
import { isUniqueViolation } from '../persistence/unique-violation.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { UserStore } from '../users/user-store.js';
import { LoginCompletion, type StagedLogin } from '../login/login-completion.js';
import { UsedChallenges } from '../login/used-challenges.js';
import { MfaAttemptLimit } from './mfa-attempt-limit.js';
import { MfaChallengeCookie } from './mfa-challenge-cookie.js';
import { type MfaChallenge, MfaChallengeTokens } from './mfa-challenge-token.js';
import { type MfaAnswer, type MfaProofFailure, type MfaProofOutcome, MfaProofs } from './mfa-proof.js';

/** What the verification's transaction decided. */
type VerifyOutcome =
  | { kind: 'gone' }
  | { kind: 'refused'; proof: MfaProofFailure }
  | { kind: 'signed-in'; proof: Extract<MfaProofOutcome, { proven: true }>; login: StagedLogin };

/**
 * The login's second step (docs/guides/two-step.md): the challenge cookie names the user and how
 * the first factor was proven; a code or a recovery code then has the login completion issue the
 * credential, in one transaction under the user's row lock, to a user who is still active, still
 * has two-step login on and still has the password hash the first factor was checked against. The
 * caller answers it through the login completion, as any login: `svc.login.after` once, with the
 * first factor's method.
 */
@Injectable()
export class MfaVerification {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly cookie: MfaChallengeCookie,
    private readonly tokens: MfaChallengeTokens,
    private readonly limits: MfaAttemptLimit,
    private readonly proofs: MfaProofs,
    private readonly usedChallenges: UsedChallenges,
    private readonly completion: LoginCompletion,
    private readonly events: AuthEventPublisher,
    private readonly audit: AuditLog,
  ) {}

  async verify(request: Request, response: Response, answer: MfaAnswer): Promise<StagedLogin> {
    const token = this.cookie.read(request);
    const challenge = token === undefined ? null : await this.tokens.verify(token);
    if (!challenge) this.refuseChallenge(response);
    const attempt = await this.limits.admit(request, response, challenge);
    const at = this.clock.now();
    const outcome = await this.spendingOnce(() =>
      this.unitOfWork.transaction(async (manager): Promise<VerifyOutcome> => {
        const user = await this.users.lockById(manager, challenge.userId);
        // Fails closed: deactivated, two-step login turned off, or the password changed since the first factor.
        if (!user?.isActive || !user.mfaTotpEnabled || !constantTimeEqual(this.tokens.passwordBindingOf(user), challenge.passwordBinding)) return { kind: 'gone' };
        // RFC 6238 §5.2, OWASP ASVS 5.0 V6: a challenge signs in once, on any instance; whatever the code, a spent one is gone.
        if (await this.usedChallenges.isUsed(manager, 'mfa', challenge.challengeId)) return { kind: 'gone' };
        const proof = await this.proofs.check(manager, user.id, answer, at);
        if (!proof.proven) return { kind: 'refused', proof };
        // Spent with the credential's issue, in one commit: a wrong code spends nothing, and of two uses at once one commits.
        await this.usedChallenges.spend(manager, 'mfa', challenge.challengeId, challenge.expiresAt);
        if (proof.method === 'recovery_code') await this.audit.record(manager, { action: 'recovery_code_used', userId: user.id, request, details: { remaining: proof.remaining } });
        return { kind: 'signed-in', proof, login: await this.completion.signIn(manager, user, request, { method: challenge.method, provider: challenge.provider }) };
      }),
    );
    if (outcome.kind === 'gone') this.refuseChallenge(response);
    if (outcome.kind === 'refused') {
      await this.limits.countFailure(attempt);
      this.announceFailure(request, challenge, outcome.proof.method, outcome.proof.reason);
      throw new AuthError('MFA_CODE_INVALID', { status: 401 });
    }
    this.cookie.clear(response);
    if (outcome.proof.method === 'recovery_code') {
      this.events.publishAfterResponse(request, AuthEvent.MfaRecoveryCodeUsed, { userId: challenge.userId, remaining: outcome.proof.remaining, at });
    }
    return outcome.login;
  }

  /** The transaction's outcome; 'gone' when another verification spent the challenge first (its INSERT won, this one rolled back whole). */
  private async spendingOnce(verification: () => Promise<VerifyOutcome>): Promise<VerifyOutcome> {
    try {
      return await verification();
    } catch (error) {
      if (isUniqueViolation(error)) return { kind: 'gone' };
      throw error;
    }
  }

  private refuseChallenge(response: Response): never {
    this.cookie.clear(response);
    throw new AuthError('MFA_CHALLENGE_INVALID');
  }

  private announceFailure(request: Request, challenge: MfaChallenge, method: 'totp' | 'recovery_code', reason: 'wrong_code' | 'replayed_code'): void {
    this.events.publishAfterResponse(request, AuthEvent.MfaFailure, { userId: challenge.userId, step: 'verify', method, reason, ip: clientAddressOf(request, this.config), at: this.clock.now() });
    // A second step refused is a failed login of a known account, written as the password step's is.
    this.audit.recordAfterResponse(request, { action: 'login_failed', userId: challenge.userId, details: { reason, step: method } });
  }
}
