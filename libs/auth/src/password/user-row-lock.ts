import type { Type } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SvcUser } from '../entities/user.entity.js';

/**
 * On PostgreSQL, locks the user's row until the transaction ends, so two password operations on
 * one user run one after the other (two new reset tokens, or a new token and a reset, never
 * interleave). SQLite needs no lock: the unit of work runs one transaction at a time there.
 */
export async function lockUserRow(manager: EntityManager, userEntity: Type<SvcUser>, userId: string): Promise<void> {
  if (manager.connection.options.type !== 'postgres') return;
  // FOR NO KEY UPDATE: blocks other writers of this row, not inserts that reference it (sessions).
  await manager.createQueryBuilder(userEntity, 'user').select('user.id').where('user.id = :userId', { userId }).setLock('for_no_key_update').getRawOne();
}
