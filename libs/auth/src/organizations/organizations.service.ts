import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { grantsPermission, permissionsOfRoles } from '../config/authorization-policy.js';
import type { ActivatedToken, CredentialOrganizations } from '../credentials/credential-organizations.js';
import type { Principal } from '../credentials/credential-resolver.js';
import { CREDENTIAL_ORGANIZATIONS } from '../credentials/credential.tokens.js';
import type { Organization } from '../entities/organization.entity.js';
import type { OrganizationMember } from '../entities/organization-member.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuditLog } from '../audit-log/audit-log.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { UserChanges } from '../users/user-changes.js';
import { InvitationLimit } from './invitation-limit.js';
import { InvitationStore } from './invitation-store.js';
import type { InvitationBody, OrganizationDetails, OrganizationMembership } from './organization-bodies.js';
import { OrganizationStore } from './organization-store.js';

/** A member acting in its organization: the organization, and the caller's membership of it. */
interface Acting {
  organization: Organization;
  membership: OrganizationMember;
}

/**
 * What the organization routes do (docs/guides/organizations.md), each in one transaction. Every
 * `/organizations/{id}/…` route answers 404 `NOT_FOUND` to a caller who is not a member (no
 * enumeration, OWASP ASVS 5.0 V8.2.2), then 403 `PERMISSION_DENIED` when the caller's role there lacks
 * the permission. Each change of a membership tells the principal cache of every instance, so that it
 * takes effect at the member's next request, and publishes its event from one place (`changed`).
 */
@Injectable()
export class Organizations {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly store: OrganizationStore,
    private readonly invitations: InvitationStore,
    private readonly limit: InvitationLimit,
    @Inject(CREDENTIAL_ORGANIZATIONS) private readonly active: CredentialOrganizations,
    private readonly changes: UserChanges,
    private readonly events: AuthEventPublisher,
    private readonly audit: AuditLog,
  ) {}

  private get policy(): NonNullable<AuthConfig['organizations']> {
    return this.config.organizations!;
  }

  async create(principal: Principal, name: string, slug: string, request: Request): Promise<OrganizationMembership> {
    const created = await this.unitOfWork.transaction(async (manager) => {
      const membership = await this.store.create(manager, principal.user.id, name, slug, this.policy.creatorRole);
      await this.audit.record(manager, { action: 'organization_created', userId: principal.user.id, request, details: { organizationId: membership.id, slug } });
      return membership;
    });
    this.events.publishAfterResponse(request, AuthEvent.OrganizationCreated, { organization: { id: created.id, name, slug }, actorId: principal.user.id });
    return created;
  }

  list(principal: Principal): Promise<OrganizationMembership[]> {
    return this.unitOfWork.autocommit((manager) => this.store.listOfUser(manager, principal.user.id));
  }

  details(principal: Principal, organizationId: string): Promise<OrganizationDetails> {
    return this.unitOfWork.autocommit(async (manager) => {
      const { organization } = await this.acting(manager, principal, organizationId);
      return this.store.details(manager, organization);
    });
  }

  async rename(principal: Principal, organizationId: string, name: string): Promise<OrganizationMembership> {
    return this.unitOfWork.transaction(async (manager) => {
      const { organization, membership } = await this.acting(manager, principal, organizationId, 'organization:update');
      await this.store.rename(manager, organization.id, name);
      return { id: organization.id, name, slug: organization.slug, role: membership.role };
    });
  }

  async delete(principal: Principal, organizationId: string, request: Request): Promise<void> {
    await this.unitOfWork.transaction(async (manager) => {
      const { organization } = await this.acting(manager, principal, organizationId, 'organization:delete');
      // Every member's credentials that act in it lose it at their next request, on every instance.
      for (const userId of await this.store.memberIds(manager, organization.id)) await this.changes.userChanged(manager, userId);
      await this.store.delete(manager, organization.id);
      await this.audit.record(manager, { action: 'organization_deleted', userId: principal.user.id, request, details: { organizationId: organization.id, slug: organization.slug } });
    });
    this.events.publishAfterResponse(request, AuthEvent.OrganizationDeleted, { organizationId, actorId: principal.user.id });
  }

  /**
   * 201: an invitation of `email` with `role`, mailed through `svc.organization.invitation_mail`.
   * 400 `ROLE_UNKNOWN` for a role the policy does not define; 403 `PERMISSION_DENIED` when the role
   * grants a permission the inviter lacks (no one hands out more than they hold, OWASP ASVS 5.0 V8.2.3).
   */
  async invite(principal: Principal, organizationId: string, email: string, role: string, request: Request, response: Response): Promise<InvitationBody> {
    const allowed = async (manager: EntityManager) => {
      const acting = await this.acting(manager, principal, organizationId, 'members:invite');
      this.assertGrantable(acting.membership.role, role);
      return acting.organization;
    };
    // Counted outside the transaction (the database limiter commits its counter on its own), once the caller may invite.
    await this.limit.admit(response, (await this.unitOfWork.autocommit(allowed)).id, email);
    const issued = await this.unitOfWork.transaction(async (manager) => {
      const organization = await allowed(manager);
      const invited = await this.invitations.issue(manager, organization.id, email, role, principal.user.id);
      await this.audit.record(manager, { action: 'organization_invitation_created', userId: principal.user.id, request, details: { organizationId: organization.id, invitationId: invited.invitation.id, email, role } });
      return { organization, ...invited };
    });
    const { invitation, token, organization } = issued;
    this.events.publishAfterResponse(request, AuthEvent.OrganizationInvitationCreated, {
      organizationId: organization.id,
      invitationId: invitation.id,
      email,
      role,
      invitedBy: principal.user.id,
      expiresAt: invitation.expiresAt,
    });
    this.events.publishAfterResponse(request, AuthEvent.OrganizationInvitationMail, {
      to: email,
      organization: { id: organization.id, name: organization.name, slug: organization.slug },
      role,
      invitationId: invitation.id,
      invitedBy: principal.user.id,
      token,
      link: `${this.config.baseUrl}${this.policy.invitationPath}?token=${encodeURIComponent(token)}`,
      expiresAt: invitation.expiresAt,
    });
    return { id: invitation.id, email, role, expiresAt: invitation.expiresAt.toISOString() };
  }

  /**
   * The signed-in user joins with the invitation's role. 400 `INVITATION_INVALID` (unknown, expired,
   * accepted, revoked); 403 `EMAIL_NOT_VERIFIED` and 403 `INVITATION_EMAIL_MISMATCH` leave it unspent:
   * only the owner of the invited mailbox, proven, can take it.
   */
  async accept(principal: Principal, token: string, request: Request): Promise<OrganizationMembership> {
    const joined = await this.unitOfWork.transaction(async (manager) => {
      const invitation = await this.invitations.findUsable(manager, token);
      if (!invitation) throw new AuthError('INVITATION_INVALID');
      if (!principal.user.emailVerifiedAt) throw new AuthError('EMAIL_NOT_VERIFIED', { message: 'Verify your email before you accept an invitation' });
      // Both sides normalised as svc stores emails; an address is no secret, a plain comparison does.
      if (principal.user.email !== invitation.email) throw new AuthError('INVITATION_EMAIL_MISMATCH');
      if (!(await this.invitations.accept(manager, invitation.id))) throw new AuthError('INVITATION_INVALID');
      const organization = await this.store.find(manager, invitation.organizationId);
      if (!organization) throw new AuthError('INVITATION_INVALID');
      const added = await this.store.addMember(manager, organization.id, principal.user.id, invitation.role);
      const membership = (await this.store.membership(manager, organization.id, principal.user.id))!;
      if (added) await this.audit.record(manager, { action: 'organization_member_added', userId: principal.user.id, request, details: { organizationId: organization.id, invitationId: invitation.id, role: membership.role } });
      return { added, invitationId: invitation.id, body: { id: organization.id, name: organization.name, slug: organization.slug, role: membership.role } };
    });
    if (joined.added) {
      this.events.publishAfterResponse(request, AuthEvent.OrganizationMemberAdded, { organizationId: joined.body.id, userId: principal.user.id, role: joined.body.role, invitationId: joined.invitationId });
    }
    return joined.body;
  }

  async revokeInvitation(principal: Principal, organizationId: string, invitationId: string, request: Request): Promise<void> {
    await this.unitOfWork.transaction(async (manager) => {
      const { organization } = await this.acting(manager, principal, organizationId, 'members:invite');
      if (!(await this.invitations.revoke(manager, organization.id, invitationId))) throw new AuthError('NOT_FOUND', { message: 'No such invitation' });
      await this.audit.record(manager, { action: 'organization_invitation_revoked', userId: principal.user.id, request, details: { organizationId: organization.id, invitationId } });
    });
  }

  /**
   * 204: the member holds `role` from the next request on (every instance). 400 `ROLE_UNKNOWN`; 403
   * when the role grants what the caller lacks; 404 for no such member; 409 `LAST_OWNER`.
   */
  async changeRole(principal: Principal, organizationId: string, userId: string, role: string, request: Request): Promise<void> {
    const change = await this.unitOfWork.transaction(async (manager) => {
      const { organization, membership } = await this.acting(manager, principal, organizationId, 'members:update');
      this.assertGrantable(membership.role, role);
      const target = await this.memberOf(manager, organization.id, userId);
      if (target.role === role) return null;
      if (target.role === this.policy.creatorRole) await this.store.assertAnotherOwner(manager, organization.id, target.userId);
      await this.store.setRole(manager, organization.id, target.userId, role);
      await this.changes.userChanged(manager, target.userId);
      await this.audit.record(manager, { action: 'organization_member_role_changed', userId: target.userId, actorId: actorOf(principal, target.userId), request, details: { organizationId: organization.id, from: target.role, to: role } });
      return { from: target.role, userId: target.userId };
    });
    if (change) this.events.publishAfterResponse(request, AuthEvent.OrganizationMemberRoleChanged, { organizationId, userId: change.userId, from: change.from, to: role, actorId: principal.user.id });
  }

  /** 204: the member is removed (or leaves: the caller itself needs no permission); 404; 409 `LAST_OWNER`. */
  async removeMember(principal: Principal, organizationId: string, userId: string, request: Request): Promise<void> {
    const leaving = userId === principal.user.id.toLowerCase();
    const removed = await this.unitOfWork.transaction(async (manager) => {
      const { organization } = await this.acting(manager, principal, organizationId, leaving ? undefined : 'members:remove');
      const target = await this.memberOf(manager, organization.id, userId);
      if (target.role === this.policy.creatorRole) await this.store.assertAnotherOwner(manager, organization.id, target.userId);
      await this.store.removeMember(manager, organization.id, target.userId);
      await this.changes.userChanged(manager, target.userId);
      await this.audit.record(manager, { action: 'organization_member_removed', userId: target.userId, actorId: actorOf(principal, target.userId), request, details: { organizationId: organization.id, role: target.role } });
      return target.userId;
    });
    this.events.publishAfterResponse(request, AuthEvent.OrganizationMemberRemoved, { organizationId, userId: removed, actorId: principal.user.id });
  }

  /** The credential acts in the organization from now on: null (session, 204) or a new access token (jwt, 200). 404 for a non-member. */
  activate(principal: Principal, organizationId: string): Promise<ActivatedToken | null> {
    return this.unitOfWork.transaction(async (manager) => {
      const { organization } = await this.acting(manager, principal, organizationId);
      return this.active.activate(manager, principal, organization.id);
    });
  }

  /** The organization and the caller's membership; 404 to a non-member, 403 without `permission`. */
  private async acting(manager: EntityManager, principal: Principal, organizationId: string, permission?: string): Promise<Acting> {
    const membership = await this.store.membership(manager, organizationId, principal.user.id);
    const organization = membership && (await this.store.find(manager, organizationId));
    if (!membership || !organization) throw noSuchOrganization();
    if (permission && !grantsPermission(permissionsOfRoles(this.policy, [membership.role]), permission)) throw new AuthError('PERMISSION_DENIED');
    return { organization, membership };
  }

  private async memberOf(manager: EntityManager, organizationId: string, userId: string): Promise<OrganizationMember> {
    const member = await this.store.membership(manager, organizationId, userId);
    if (!member) throw new AuthError('NOT_FOUND', { message: 'No such member' });
    return member;
  }

  /** 400 `ROLE_UNKNOWN` for a role the policy does not define; 403 when it grants a permission `actorRole` lacks. */
  private assertGrantable(actorRole: string, role: string): void {
    if (!Object.hasOwn(this.policy.roles, role)) throw new AuthError('ROLE_UNKNOWN', { message: 'The organizations policy defines no such role' });
    const held = permissionsOfRoles(this.policy, [actorRole]);
    if (!this.policy.roles[role].every((permission) => grantsPermission(held, permission))) {
      throw new AuthError('PERMISSION_DENIED', { message: 'This role grants a permission you do not hold' });
    }
  }
}

export function noSuchOrganization(): AuthError {
  return new AuthError('NOT_FOUND', { message: 'No such organization' });
}

/** The activity log's actor of a change to `userId`'s membership: the caller, unless it is that user. */
function actorOf(principal: Principal, userId: string): string | null {
  return principal.user.id.toLowerCase() === userId.toLowerCase() ? null : principal.user.id;
}
