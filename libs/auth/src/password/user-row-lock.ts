import type { Type } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SvcUser } from '../entities/user.entity.js';

/**
 * Reads the user and, on PostgreSQL, locks its row until the transaction ends, so two password
 * operations on one user run one after the other (a new reset token and a reset never interleave).
 * SQLite needs no lock: the unit of work already runs one transaction at a time there.
 */
export function lockedUser(manager: EntityManager, userEntity: Type<SvcUser>, userId: string): Promise<SvcUser | null> {
  const query = manager.createQueryBuilder(userEntity, 'user').where('user.id = :userId', { userId });
  // FOR NO KEY UPDATE: blocks other writers of this row, not inserts that reference it (sessions).
  if (manager.connection.options.type === 'postgres') query.setLock('for_no_key_update');
  return query.getOne();
}
