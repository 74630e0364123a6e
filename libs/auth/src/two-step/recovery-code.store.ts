import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type EntityManager, IsNull } from 'typeorm';
import { MfaRecoveryCode } from '../entities/mfa-recovery-code.entity.js';
import { newRecoveryCode, RECOVERY_CODE_COUNT, recoveryCodeHash } from './recovery-codes.js';

/** Rows of `mfa_recovery_codes`: a user's single-use codes, stored as their SHA-256 only. */
@Injectable()
export class RecoveryCodeStore {
  /** Replaces every code of the user (used or not) with ten new ones; returns them, the one time they exist in clear. */
  async replaceAll(manager: EntityManager, userId: string, at: Date): Promise<string[]> {
    await this.removeAll(manager, userId);
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await manager.insert(
      MfaRecoveryCode,
      codes.map((code) => ({ id: randomUUID(), userId, codeHash: recoveryCodeHash(code), usedAt: null, createdAt: at })),
    );
    return codes;
  }

  async removeAll(manager: EntityManager, userId: string): Promise<void> {
    await manager.delete(MfaRecoveryCode, { userId });
  }

  /** Whether the user holds this unused code: one indexed lookup, whatever the code. */
  holdsUnused(manager: EntityManager, userId: string, codeHash: string): Promise<boolean> {
    return manager.existsBy(MfaRecoveryCode, { userId, codeHash, usedAt: IsNull() });
  }

  /** Spends the code: a conditional update, so of two uses (on any instance) one wins. */
  async spend(manager: EntityManager, userId: string, codeHash: string, at: Date): Promise<boolean> {
    const result = await manager.update(MfaRecoveryCode, { userId, codeHash, usedAt: IsNull() }, { usedAt: at });
    return result.affected === 1;
  }

  unusedCount(manager: EntityManager, userId: string): Promise<number> {
    return manager.countBy(MfaRecoveryCode, { userId, usedAt: IsNull() });
  }
}
