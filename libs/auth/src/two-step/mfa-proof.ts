import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MfaTotpStore } from './mfa-totp.store.js';
import { RecoveryCodeStore } from './recovery-code.store.js';
import { recoveryCodeHash } from './recovery-codes.js';
import { NO_CODE, TotpCodes } from './totp-codes.js';
import { TotpSecretCipher } from './totp-secret.cipher.js';

/** What a user answers a second-factor question with: an authenticator code, or one of their recovery codes. */
export type MfaAnswer = { code: string; recoveryCode?: undefined } | { recoveryCode: string; code?: undefined };

export type MfaProofFailure = { proven: false; method: 'totp' | 'recovery_code'; reason: 'wrong_code' | 'replayed_code' };

export type MfaProofOutcome =
  | { proven: true; method: 'totp' }
  | { proven: true; method: 'recovery_code'; remaining: number }
  | MfaProofFailure;

/**
 * Checks a second factor of a user whose two-step login is on, inside the caller's transaction, and
 * spends what it proves with: the code's time step (no replay, RFC 6238 §5.2) or the recovery code
 * (single use). Both kinds cost the same work whether right or wrong (docs/guides/two-step.md): the
 * row read and decrypted, one TOTP check over three steps, one SHA-256 and one indexed lookup of a
 * recovery code; only a success writes.
 */
@Injectable()
export class MfaProofs {
  constructor(
    private readonly totpRows: MfaTotpStore,
    private readonly recoveryCodes: RecoveryCodeStore,
    private readonly cipher: TotpSecretCipher,
    private readonly totp: TotpCodes,
  ) {}

  async check(manager: EntityManager, userId: string, answer: MfaAnswer, at: Date): Promise<MfaProofOutcome> {
    const method = answer.code === undefined ? 'recovery_code' : 'totp';
    const row = await this.totpRows.find(manager, userId);
    // Callers checked `users.mfa_totp_enabled` under the row lock; the two change together, so this fails closed only.
    if (!row?.enabledAt) return { proven: false, method, reason: 'wrong_code' };
    const secret = this.cipher.open({ ciphertext: row.secretCiphertext, keyId: row.keyId }, userId);
    const step = this.totp.matchingStep(secret, answer.code ?? NO_CODE, at);
    const codeHash = recoveryCodeHash(answer.recoveryCode ?? answer.code);
    const holdsRecoveryCode = await this.recoveryCodes.holdsUnused(manager, userId, codeHash);
    if (answer.code !== undefined) {
      if (step === null) return { proven: false, method, reason: 'wrong_code' };
      if (!(await this.totpRows.claimStep(manager, userId, step))) return { proven: false, method, reason: 'replayed_code' };
      // Sealed under an earlier key (docs/guides/two-step.md: rotation): sealed again under the current one.
      if (!this.cipher.isCurrent(row.keyId)) await this.totpRows.reseal(manager, userId, this.cipher.seal(secret, userId));
      return { proven: true, method: 'totp' };
    }
    if (!holdsRecoveryCode || !(await this.recoveryCodes.spend(manager, userId, codeHash, at))) return { proven: false, method, reason: 'wrong_code' };
    return { proven: true, method: 'recovery_code', remaining: await this.recoveryCodes.unusedCount(manager, userId) };
  }
}
