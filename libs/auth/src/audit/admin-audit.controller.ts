import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { Permissions } from '../authorization/authorization.decorators.js';
import { CurrentUserGuard } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import { AuthError } from '../errors/auth.error.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { isUuid } from '../persistence/uuid.js';
import type { AuditEventPage } from './activity-bodies.js';
import { ActivityReader } from './activity-reader.js';
import { AUDIT_ACTIONS, type AuditAction, isAuditAction } from '../audit-log/audit-actions.js';
import { listLimitOf } from './list-limit.js';

/** Longest cursor the list accepts before checking its signature. */
const MAX_CURSOR_LENGTH = 512;

/**
 * The whole activity log for an administrator holding `audit:read` (docs/guides/account-security.md),
 * under `<prefix>/admin` with the `admin` and `audit` sections; closed to an impersonation, as every
 * admin route.
 */
@Controller()
@UseGuards(CurrentUserGuard)
@RestrictedWhileImpersonating()
export class AdminAuditController {
  constructor(private readonly reader: ActivityReader) {}

  @SvcRoute({
    summary: 'The activity log newest first (audit:read): `?userId=`, `?action=`, `?limit=` 1..100 (default 20), `?cursor=` the previous page\'s nextCursor',
    success: { description: '{ events: [{ action, at, ip, userAgent, userId, actorId, details? }], nextCursor }' },
    errors: ['VALIDATION_FAILED'],
  })
  @Get('admin/audit')
  @Permissions('audit:read')
  list(@Query('userId') userId: unknown, @Query('action') action: unknown, @Query('limit') limit: unknown, @Query('cursor') cursor: unknown): Promise<AuditEventPage> {
    return this.reader.list({ userId: userIdOf(userId), action: actionOf(action), limit: listLimitOf(limit), cursor: cursorOf(cursor) });
  }
}

function userIdOf(userId: unknown): string | undefined {
  if (userId === undefined) return undefined;
  if (!isUuid(userId)) throw new AuthError('VALIDATION_FAILED', { message: ['userId must be a UUID'] });
  return userId.toLowerCase();
}

function actionOf(action: unknown): AuditAction | undefined {
  if (action === undefined) return undefined;
  if (!isAuditAction(action)) throw new AuthError('VALIDATION_FAILED', { message: [`action must be one of ${AUDIT_ACTIONS.join(', ')}`] });
  return action;
}

function cursorOf(cursor: unknown): string | undefined {
  if (cursor === undefined) return undefined;
  if (typeof cursor !== 'string' || cursor.length > MAX_CURSOR_LENGTH) throw new AuthError('VALIDATION_FAILED', { message: ['cursor is not one this list issued'] });
  return cursor;
}
