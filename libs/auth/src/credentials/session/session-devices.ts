import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK } from '../../config/auth.constants.js';
import type { Clock } from '../../config/clock.js';
import { Session } from './session.entity.js';
import type { CredentialDevices, Device } from '../credential-devices.js';
import { PrincipalInvalidations } from '../../principal-cache/principal-invalidations.js';
import { SessionStore } from './session-store.js';

/** The session credential's devices: the user's live session rows (docs/guides/devices.md). Ending one deletes its row. */
@Injectable()
export class SessionDevices implements CredentialDevices {
  constructor(
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly sessions: SessionStore,
    private readonly invalidations: PrincipalInvalidations,
  ) {}

  async listOfUser(manager: EntityManager, userId: string): Promise<Device[]> {
    const rows = await manager
      .createQueryBuilder(Session, 'session')
      .where('session.userId = :userId AND session.expiresAt > :now AND session.createdAt > :absoluteStart', this.live(userId))
      .orderBy('session.createdAt', 'DESC')
      .addOrderBy('session.id', 'DESC')
      .getMany();
    return rows.map((row) => ({ id: row.id, createdAt: row.createdAt, lastUsedAt: row.lastSeenAt, userAgent: row.userAgent }));
  }

  async revokeOfUser(manager: EntityManager, userId: string, id: string): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(Session)
      .where('id = :id AND user_id = :userId AND expires_at > :now AND created_at > :absoluteStart', { id, ...this.live(userId) })
      .execute();
    if (result.affected !== 1) return false;
    await this.invalidations.userChanged(manager, userId);
    return true;
  }

  private live(userId: string) {
    return { userId, now: this.clock.now(), absoluteStart: this.sessions.absoluteStart() };
  }
}
