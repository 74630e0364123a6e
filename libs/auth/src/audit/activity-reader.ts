import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { UserListCursor, type UserListPosition } from '../admin/user-list-cursor.js';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { deriveKey } from '../crypto/derive-key.js';
import { AuditEvent } from '../entities/audit-event.entity.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import type { ActivityBody, AuditEventBody, AuditEventPage } from './activity-bodies.js';
import type { AuditAction } from '../audit-log/audit-actions.js';

/** What the administrator's list is filtered by. */
export interface AuditFilter {
  userId?: string;
  action?: AuditAction;
  limit: number;
  cursor?: string;
}

/**
 * Reads the activity log, newest first, always as an index range (docs/decisions/0029-activity-log.md):
 * a user's own entries through `(user_id, at, id)`, the administrator's list through `(at, id)`,
 * `(action, at, id)` or the user's index, paged by keyset on `(at, id)` after a signed cursor (never
 * an OFFSET), so a page costs the same with a thousand entries or a million.
 */
@Injectable()
export class ActivityReader {
  private readonly cursor?: UserListCursor;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    @Inject(AUTH_CONFIG) config: AuthConfig,
  ) {
    // OWASP ASVS 5.0 V11.5.1: a cursor is trusted only with its MAC, under a key of its own.
    if (config.admin) this.cursor = new UserListCursor(deriveKey(config.admin.cursorKey, 'admin audit list cursors'));
  }

  /** The user's own newest entries. */
  async ofUser(userId: string, limit: number): Promise<ActivityBody[]> {
    const rows = await this.unitOfWork.autocommit((manager) => this.page(manager, { userId, limit }, undefined));
    return rows.map(({ event }) => activityBody(event));
  }

  /** One page of the administrator's list; 400 `VALIDATION_FAILED` for a cursor this list did not issue for these filters. */
  async list(filter: AuditFilter): Promise<AuditEventPage> {
    const cursor = this.cursor;
    if (!cursor) throw new TypeError('svc: the audit list needs the admin section (its cursors are signed with a key derived from the secret)');
    const bound = `audit\u0000${filter.userId ?? ''}\u0000${filter.action ?? ''}`;
    const after = filter.cursor === undefined ? undefined : cursor.read(filter.cursor, bound);
    const rows = await this.unitOfWork.autocommit((manager) => this.page(manager, { ...filter, limit: filter.limit + 1 }, after));
    const page = rows.slice(0, filter.limit);
    const last = rows.length > filter.limit ? page[page.length - 1] : undefined;
    return {
      events: page.map(({ event }) => auditEventBody(event)),
      nextCursor: last ? cursor.issue({ createdAt: last.at, id: last.event.id }, bound) : null,
    };
  }

  /** Entries newest first, with each one's `at` as the database's own text (what a cursor carries back). */
  private async page(manager: EntityManager, filter: Omit<AuditFilter, 'cursor'>, after: UserListPosition | undefined): Promise<{ event: AuditEvent; at: string }[]> {
    const builder = manager
      .createQueryBuilder(AuditEvent, 'e')
      .addSelect('CAST(e.at AS TEXT)', 'cursor_at')
      .orderBy('e.at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .limit(filter.limit);
    if (filter.userId !== undefined) builder.andWhere('e.user_id = :userId', { userId: filter.userId });
    if (filter.action !== undefined) builder.andWhere('e.action = :action', { action: filter.action });
    if (after) builder.andWhere('(e.at, e.id) < (:at, :id)', { at: after.createdAt, id: after.id });
    const { entities, raw } = await builder.getRawAndEntities<{ cursor_at: string }>();
    return entities.map((event, i) => ({ event, at: String(raw[i].cursor_at) }));
  }
}

function activityBody(event: AuditEvent): ActivityBody {
  return { action: event.action, at: event.at.toISOString(), ip: event.ip, userAgent: event.userAgent };
}

function auditEventBody(event: AuditEvent): AuditEventBody {
  const details = JSON.parse(event.details) as Record<string, unknown>;
  return { ...activityBody(event), userId: event.userId, actorId: event.actorId, ...(Object.keys(details).length > 0 ? { details } : {}) };
}
