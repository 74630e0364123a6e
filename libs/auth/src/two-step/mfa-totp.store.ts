import { Injectable } from '@nestjs/common';
import { type EntityManager, IsNull, Not } from 'typeorm';
import { MfaTotp } from '../entities/mfa-totp.entity.js';
import type { SealedSecret } from './totp-secret.cipher.js';

/** Rows of `mfa_totp`: one authenticator secret a user, pending or enabled. */
@Injectable()
export class MfaTotpStore {
  find(manager: EntityManager, userId: string): Promise<MfaTotp | null> {
    return manager.findOneBy(MfaTotp, { userId });
  }

  /** A new pending secret, replacing a pending one (a setup started again). */
  async savePending(manager: EntityManager, userId: string, sealed: SealedSecret, at: Date): Promise<void> {
    await manager.delete(MfaTotp, { userId });
    await manager.insert(MfaTotp, { userId, secretCiphertext: sealed.ciphertext, keyId: sealed.keyId, enabledAt: null, lastUsedStep: null, createdAt: at });
  }

  /** Turns the pending secret on, the code's step recorded as used; false when it is not pending any more. */
  async enable(manager: EntityManager, userId: string, step: number, at: Date): Promise<boolean> {
    const result = await manager.update(MfaTotp, { userId, enabledAt: IsNull() }, { enabledAt: at, lastUsedStep: step });
    return result.affected === 1;
  }

  /**
   * RFC 6238 §5.2: a code is accepted once. Records `step` as used only if no code of it or a later
   * step was: one conditional update, so two instances given the same code cannot both accept it.
   */
  async claimStep(manager: EntityManager, userId: string, step: number): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(MfaTotp)
      .set({ lastUsedStep: step })
      .where({ userId, enabledAt: Not(IsNull()) })
      .andWhere('(last_used_step IS NULL OR last_used_step < :step)', { step })
      .execute();
    return result.affected === 1;
  }

  /** The same secret sealed again (under the current key). */
  async reseal(manager: EntityManager, userId: string, sealed: SealedSecret): Promise<void> {
    await manager.update(MfaTotp, { userId }, { secretCiphertext: sealed.ciphertext, keyId: sealed.keyId });
  }

  async remove(manager: EntityManager, userId: string): Promise<void> {
    await manager.delete(MfaTotp, { userId });
  }
}
