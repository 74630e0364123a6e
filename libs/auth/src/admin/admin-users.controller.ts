import { Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { Permissions } from '../authorization/authorization.decorators.js';
import type { Request, Response } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { emptyBody } from '../http/auth-body-schema.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { isUuid } from '../persistence/uuid.js';
import type { AdminUserDetails, AdminUserPage } from './admin-bodies.js';
import { deactivationBody, roleGrantBody } from './admin.requests.js';
import { Impersonation } from './impersonation.service.js';
import { UserAdministration } from './user-administration.js';
import { noSuchUser, UserDirectory } from './user-directory.js';

/** The `{id}` path parameter of the user routes. */
const USER = { id: 'uuid' } as const;

/**
 * The administration of users, under `<prefix>/admin` (docs/guides/administration.md): each route
 * behind its permission of the `authorization` policy, none open to an administrator who is
 * impersonating someone (403 `IMPERSONATION_RESTRICTED`, checked first). The acting administrator
 * is recorded in the events.
 */
@Controller()
@UseGuards(CurrentUserGuard)
@RestrictedWhileImpersonating()
export class AdminUsersController {
  constructor(
    private readonly directory: UserDirectory,
    private readonly administration: UserAdministration,
    private readonly impersonation: Impersonation,
  ) {}

  /** 200 `{ users, nextCursor }`, newest first; `query` is a prefix of the email. */
  @SvcRoute({
    summary: "Users newest first (users:read): `?query=` a prefix of the email, `?limit=` 1..100 (default 20), `?cursor=` the previous page's nextCursor",
    success: { description: '{ users: [user body + isActive, createdAt], nextCursor }' },
    errors: ['VALIDATION_FAILED'],
  })
  @Get('admin/users')
  @Permissions('users:read')
  list(@Query('query') query: unknown, @Query('limit') limit: unknown, @Query('cursor') cursor: unknown): Promise<AdminUserPage> {
    return this.directory.list({ query: query as string | undefined, limit: limitOf(limit), cursor: cursorOf(cursor) });
  }

  @SvcRoute({ summary: "One user's details (users:read): loginMethods, mfa and the number of live sessions beside the summary", success: { description: 'user body + isActive, createdAt, loginMethods, mfa, sessions' }, errors: ['NOT_FOUND'], pathParameters: USER })
  @Get('admin/users/:id')
  @Permissions('users:read')
  details(@Param('id') id: string): Promise<AdminUserDetails> {
    return this.directory.details(userIdOf(id));
  }

  /** 204, also when the user held the role already; 400 `ROLE_UNKNOWN` for a role the policy does not define. */
  @SvcRoute({ summary: 'Grant a role of the policy (users:roles), `{ role }`; a role held already changes nothing', success: { description: 'Granted' }, errors: ['ROLE_UNKNOWN', 'NOT_FOUND'], pathParameters: USER })
  @Post('admin/users/:id/roles')
  @Permissions('users:roles')
  @HttpCode(HttpStatus.NO_CONTENT)
  async grantRole(@Param('id') id: string, @AuthBody(roleGrantBody) body: { role: string }, @Req() request: Request): Promise<void> {
    await this.administration.grantRole(userIdOf(id), body.role, { actorId: actorOf(request), request });
  }

  /** 204; 404 when the user does not hold it; 409 `LAST_ADMIN` for the last active holder of `users:roles`. */
  @SvcRoute((config) => ({
    summary: 'Revoke a role (users:roles); never the last active holder of users:roles',
    success: { description: 'Revoked' },
    errors: ['NOT_FOUND', 'LAST_ADMIN'],
    pathParameters: { ...USER, role: Object.keys(config.authorization?.roles ?? {}) },
  }))
  @Delete('admin/users/:id/roles/:role')
  @Permissions('users:roles')
  @HttpCode(HttpStatus.NO_CONTENT)
  revokeRole(@Param('id') id: string, @Param('role') role: string, @Req() request: Request): Promise<void> {
    return this.administration.revokeRole(userIdOf(id), role, { actorId: actorOf(request), request });
  }

  /** 204: `is_active` false, every credential of the user ended; `svc.user.deactivated` with the administrator and the reason. */
  @SvcRoute({ summary: 'Deactivate the user (users:ban), `{ reason? }`: every credential refused at its next request, everywhere', success: { description: 'Deactivated' }, errors: ['NOT_FOUND', 'LAST_ADMIN'], pathParameters: USER })
  @Post('admin/users/:id/deactivate')
  @Permissions('users:ban')
  @HttpCode(HttpStatus.NO_CONTENT)
  async deactivate(@Param('id') id: string, @AuthBody(deactivationBody) body: { reason?: string }, @Req() request: Request): Promise<void> {
    await this.administration.deactivate(userIdOf(id), { actorId: actorOf(request), reason: body.reason ?? null, request });
  }

  @SvcRoute({ summary: 'Activate the user again (users:ban)', success: { description: 'Activated' }, errors: ['NOT_FOUND'], pathParameters: USER })
  @Post('admin/users/:id/activate')
  @Permissions('users:ban')
  @HttpCode(HttpStatus.NO_CONTENT)
  async activate(@Param('id') id: string, @AuthBody(emptyBody) _body: object, @Req() request: Request): Promise<void> {
    await this.administration.activate(userIdOf(id), { actorId: actorOf(request), request });
  }

  @SvcRoute({ summary: 'End every credential of the user (users:ban)', success: { description: 'Every credential ended' }, errors: ['NOT_FOUND'], pathParameters: USER })
  @Post('admin/users/:id/revoke-sessions')
  @Permissions('users:ban')
  @HttpCode(HttpStatus.NO_CONTENT)
  revokeSessions(@Param('id') id: string, @AuthBody(emptyBody) _body: object): Promise<void> {
    return this.administration.revokeSessions(userIdOf(id));
  }

  /** 202: the reset message forgot-password sends goes to the user. */
  @SvcRoute({ summary: 'Send the user the message forgot-password sends (users:update)', success: { description: 'Accepted' }, errors: ['NOT_FOUND'], pathParameters: USER })
  @Post('admin/users/:id/password-reset')
  @Permissions('users:update')
  @HttpCode(HttpStatus.ACCEPTED)
  async passwordReset(@Param('id') id: string, @AuthBody(emptyBody) _body: object, @Req() request: Request): Promise<void> {
    await this.administration.sendPasswordReset(userIdOf(id), { actorId: actorOf(request), request });
  }

  @SvcRoute({ summary: 'Delete the user and every row of theirs (users:delete)', success: { description: 'Deleted' }, errors: ['NOT_FOUND', 'LAST_ADMIN'], pathParameters: USER })
  @Delete('admin/users/:id')
  @Permissions('users:delete')
  @HttpCode(HttpStatus.NO_CONTENT)
  remove(@Param('id') id: string, @Req() request: Request): Promise<void> {
    return this.administration.delete(userIdOf(id), { actorId: actorOf(request), request });
  }

  /** 200: the user's credential, as their login would answer. */
  @SvcRoute({
    summary: "The user's credential as their login gives it, marked impersonatedBy, for an hour at most (users:impersonate)",
    success: { description: "The user's credential", body: 'login' },
    errors: ['USER_INACTIVE', 'NOT_FOUND'],
    pathParameters: USER,
  })
  @Post('admin/users/:id/impersonate')
  @Permissions('users:impersonate')
  @HttpCode(HttpStatus.OK)
  impersonate(@Param('id') id: string, @AuthBody(emptyBody) _body: object, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object> {
    return this.impersonation.start(principalOf(request)!, userIdOf(id), request, response);
  }
}

/** The acting administrator. */
function actorOf(request: Request): string {
  return principalOf(request)!.user.id;
}

/** A path id that cannot name a user is an unknown user (404), never a statement. */
function userIdOf(id: string): string {
  if (!isUuid(id)) throw noSuchUser();
  return id.toLowerCase();
}

function limitOf(limit: unknown): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit !== 'string' || !/^[0-9]{1,3}$/.test(limit)) throw new AuthError('VALIDATION_FAILED', { message: ['limit must be an integer from 1 to 100'] });
  return Number(limit);
}

function cursorOf(cursor: unknown): string | undefined {
  if (cursor === undefined) return undefined;
  if (typeof cursor !== 'string' || cursor.length > 512) throw new AuthError('VALIDATION_FAILED', { message: ['cursor is not one this list issued'] });
  return cursor;
}
