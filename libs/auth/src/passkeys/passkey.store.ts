import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Passkey } from '../entities/passkey.entity.js';
import { isUuid } from '../persistence/uuid.js';

/** What a verified registration stores. */
export type NewPasskey = Pick<Passkey, 'userId' | 'credentialId' | 'publicKey' | 'counter' | 'transports' | 'deviceType' | 'backedUp' | 'name' | 'createdAt'>;

/** Reads and writes rows of `passkeys`. */
@Injectable()
export class PasskeyStore {
  async insert(manager: EntityManager, passkey: NewPasskey): Promise<Passkey> {
    const row = manager.create(Passkey, { ...passkey, id: randomUUID(), lastUsedAt: null });
    await manager.insert(Passkey, row);
    return row;
  }

  findByCredentialId(manager: EntityManager, credentialId: string): Promise<Passkey | null> {
    return manager.findOneBy(Passkey, { credentialId });
  }

  /** The user's passkeys, oldest first. */
  findOfUser(manager: EntityManager, userId: string): Promise<Passkey[]> {
    return manager.find(Passkey, { where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** One of the user's own passkeys; another user's, or an id that is none, is null. */
  findOwn(manager: EntityManager, userId: string, id: string): Promise<Passkey | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return manager.findOneBy(Passkey, { id, userId });
  }

  countOfUser(manager: EntityManager, userId: string): Promise<number> {
    return manager.countBy(Passkey, { userId });
  }

  /**
   * Records a verified assertion: the new counter, backup state and last use, only if the stored
   * counter is still below the new one (or both are 0: an authenticator that keeps no counter).
   * One conditional UPDATE: of two assertions racing with one counter value, one passes. False
   * when the counter did not go forward (WebAuthn L2 §7.2 step 21: a possibly cloned authenticator).
   */
  async recordUse(manager: EntityManager, passkey: Passkey, use: { counter: number; backedUp: boolean; at: Date }): Promise<boolean> {
    const query = manager
      .createQueryBuilder()
      .update(Passkey)
      .set({ counter: use.counter, backedUp: use.backedUp, lastUsedAt: use.at })
      .where('id = :id', { id: passkey.id });
    const result = await (use.counter === 0 ? query.andWhere('counter = 0') : query.andWhere('counter < :counter', { counter: use.counter })).execute();
    return result.affected === 1;
  }

  async rename(manager: EntityManager, id: string, name: string): Promise<void> {
    await manager.update(Passkey, { id }, { name });
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.delete(Passkey, { id });
  }
}

/** The stored transports, as WebAuthn lists them. */
export function transportsOf(passkey: Passkey): string[] {
  return passkey.transports === '' ? [] : passkey.transports.split(',');
}
