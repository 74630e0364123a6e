import { Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import type { Principal } from '../credentials/credential-resolver.js';
import { AuthError } from '../errors/auth.error.js';
import type { SecretString } from '../hooks/secret-string.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { emptyBody } from '../http/auth-body-schema.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { isUuid } from '../persistence/uuid.js';
import type { ActivatedToken } from '../credentials/credential-organizations.js';
import type { InvitationBody, OrganizationDetails, OrganizationMembership } from './organization-bodies.js';
import { invitationAcceptBody, invitationBody, memberRoleBody, organizationCreateBody, organizationRenameBody } from './organizations.requests.js';
import { noSuchOrganization, Organizations } from './organizations.service.js';

const ORGANIZATION = { id: 'uuid' } as const;

/**
 * The organization routes under `<prefix>/organizations` (docs/guides/organizations.md), all behind the
 * credential. On `/organizations/{id}/…`, a caller who is not a member gets 404 `NOT_FOUND`, whatever
 * the organization (no enumeration); a member without the permission, 403 `PERMISSION_DENIED`.
 */
@Controller()
@UseGuards(CurrentUserGuard)
export class OrganizationsController {
  constructor(private readonly organizations: Organizations) {}

  @SvcRoute({ summary: 'Create an organization, `{ name, slug }`; the caller becomes its member with the creator role', success: { description: '{ id, name, slug, role }' }, errors: ['ORGANIZATION_SLUG_TAKEN'] })
  @Post('organizations')
  @HttpCode(HttpStatus.CREATED)
  create(@AuthBody(organizationCreateBody) body: { name: string; slug: string }, @Req() request: Request): Promise<OrganizationMembership> {
    return this.organizations.create(callerOf(request), body.name, body.slug, request);
  }

  @SvcRoute({ summary: "The caller's organizations with its role in each", success: { description: '[{ id, name, slug, role }]' } })
  @Get('organizations')
  list(@Req() request: Request): Promise<OrganizationMembership[]> {
    return this.organizations.list(callerOf(request));
  }

  /** Declared before the `{id}` routes: `invitations` is no organization id. */
  @SvcRoute({
    summary: "Accept an invitation, `{ token }` (the mailed one): the caller's verified email must be the invited one",
    success: { description: '{ id, name, slug, role }' },
    errors: ['INVITATION_INVALID', 'EMAIL_NOT_VERIFIED', 'INVITATION_EMAIL_MISMATCH'],
  })
  @Post('organizations/invitations/accept')
  @HttpCode(HttpStatus.OK)
  accept(@AuthBody(invitationAcceptBody) body: { token: SecretString }, @Req() request: Request): Promise<OrganizationMembership> {
    return this.organizations.accept(callerOf(request), body.token.reveal(), request);
  }

  @SvcRoute({ summary: 'The organization and its members (members only)', success: { description: '{ id, name, slug, members: [{ userId, email, role, joinedAt }] }' }, errors: ['NOT_FOUND'], pathParameters: ORGANIZATION })
  @Get('organizations/:id')
  details(@Param('id') id: string, @Req() request: Request): Promise<OrganizationDetails> {
    return this.organizations.details(callerOf(request), idOf(id));
  }

  @SvcRoute({ summary: 'Rename the organization, `{ name }` (organization:update)', success: { description: '{ id, name, slug, role }' }, errors: ['PERMISSION_DENIED', 'NOT_FOUND'], pathParameters: ORGANIZATION })
  @Patch('organizations/:id')
  rename(@Param('id') id: string, @AuthBody(organizationRenameBody) body: { name: string }, @Req() request: Request): Promise<OrganizationMembership> {
    return this.organizations.rename(callerOf(request), idOf(id), body.name);
  }

  @SvcRoute({ summary: 'Delete the organization, its members and invitations (organization:delete)', success: { description: 'Deleted' }, errors: ['PERMISSION_DENIED', 'NOT_FOUND'], pathParameters: ORGANIZATION })
  @Delete('organizations/:id')
  @HttpCode(HttpStatus.NO_CONTENT)
  remove(@Param('id') id: string, @Req() request: Request): Promise<void> {
    return this.organizations.delete(callerOf(request), idOf(id), request);
  }

  @SvcRoute({
    summary: 'Invite an address, `{ email, role }` (members:invite): the invitation link is mailed; the role may grant only what the caller holds',
    success: { description: '{ id, email, role, expiresAt }' },
    errors: ['ROLE_UNKNOWN', 'PERMISSION_DENIED', 'NOT_FOUND', 'RATE_LIMITED'],
    pathParameters: ORGANIZATION,
  })
  @Post('organizations/:id/invitations')
  @HttpCode(HttpStatus.CREATED)
  invite(@Param('id') id: string, @AuthBody(invitationBody) body: { email: string; role: string }, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<InvitationBody> {
    return this.organizations.invite(callerOf(request), idOf(id), body.email, body.role, request, response);
  }

  @SvcRoute({ summary: 'Revoke a pending invitation (members:invite)', success: { description: 'Revoked' }, errors: ['PERMISSION_DENIED', 'NOT_FOUND'], pathParameters: { ...ORGANIZATION, invitationId: 'uuid' } })
  @Delete('organizations/:id/invitations/:invitationId')
  @HttpCode(HttpStatus.NO_CONTENT)
  revokeInvitation(@Param('id') id: string, @Param('invitationId') invitationId: string, @Req() request: Request): Promise<void> {
    if (!isUuid(invitationId)) throw new AuthError('NOT_FOUND', { message: 'No such invitation' });
    return this.organizations.revokeInvitation(callerOf(request), idOf(id), invitationId.toLowerCase(), request);
  }

  @SvcRoute({
    summary: "Change a member's role, `{ role }` (members:update); never the last holder of the creator role",
    success: { description: 'Changed' },
    errors: ['ROLE_UNKNOWN', 'PERMISSION_DENIED', 'NOT_FOUND', 'LAST_OWNER'],
    pathParameters: { ...ORGANIZATION, userId: 'uuid' },
  })
  @Patch('organizations/:id/members/:userId')
  @HttpCode(HttpStatus.NO_CONTENT)
  changeRole(@Param('id') id: string, @Param('userId') userId: string, @AuthBody(memberRoleBody) body: { role: string }, @Req() request: Request): Promise<void> {
    return this.organizations.changeRole(callerOf(request), idOf(id), memberIdOf(userId), body.role, request);
  }

  @SvcRoute({
    summary: 'Remove a member (members:remove), or leave (the caller itself); never the last holder of the creator role',
    success: { description: 'Removed' },
    errors: ['PERMISSION_DENIED', 'NOT_FOUND', 'LAST_OWNER'],
    pathParameters: { ...ORGANIZATION, userId: 'uuid' },
  })
  @Delete('organizations/:id/members/:userId')
  @HttpCode(HttpStatus.NO_CONTENT)
  removeMember(@Param('id') id: string, @Param('userId') userId: string, @Req() request: Request): Promise<void> {
    return this.organizations.removeMember(callerOf(request), idOf(id), memberIdOf(userId), request);
  }

  @SvcRoute((config) => ({
    summary: 'Act in this organization (members): /me and request.user carry it from now on',
    success: config.credential === 'jwt' ? { description: 'A new access token with the org claim', body: 'token' } : { description: 'Activated (204)' },
    errors: ['NOT_FOUND'],
    pathParameters: ORGANIZATION,
  }))
  @Post('organizations/:id/activate')
  async activate(@Param('id') id: string, @AuthBody(emptyBody) _body: object, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<ActivatedToken | undefined> {
    const token = await this.organizations.activate(callerOf(request), idOf(id));
    response.status(token ? HttpStatus.OK : HttpStatus.NO_CONTENT);
    return token ?? undefined;
  }
}

function callerOf(request: Request): Principal {
  return principalOf(request)!;
}

/** A path id that cannot name an organization is one the caller is no member of (404), never a statement. */
function idOf(id: string): string {
  if (!isUuid(id)) throw noSuchOrganization();
  return id.toLowerCase();
}

function memberIdOf(id: string): string {
  if (!isUuid(id)) throw new AuthError('NOT_FOUND', { message: 'No such member' });
  return id.toLowerCase();
}
