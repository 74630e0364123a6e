import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Clock } from '../config/clock.js';
import { Organization } from '../entities/organization.entity.js';
import { OrganizationMember } from '../entities/organization-member.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { isUniqueViolation } from '../persistence/unique-violation.js';
import type { OrganizationDetails, OrganizationMembership } from './organization-bodies.js';

/**
 * Rows of `organizations` and `organization_members` (docs/guides/organizations.md), each in the
 * caller's transaction. Nothing here decides who may do what: `Organizations` does.
 */
@Injectable()
export class OrganizationStore {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {}

  /** A new organization with `userId` its member holding `role`; 409 `ORGANIZATION_SLUG_TAKEN` for a slug another has. */
  async create(manager: EntityManager, userId: string, name: string, slug: string, role: string): Promise<OrganizationMembership> {
    const id = randomUUID();
    const now = this.clock.now();
    if (await manager.existsBy(Organization, { slug })) throw new AuthError('ORGANIZATION_SLUG_TAKEN');
    try {
      await manager.insert(Organization, { id, name, slug, createdAt: now });
    } catch (error) {
      // A concurrent creation took the slug between the look and the insert.
      if (isUniqueViolation(error)) throw new AuthError('ORGANIZATION_SLUG_TAKEN');
      throw error;
    }
    await manager.insert(OrganizationMember, { organizationId: id, userId, role, joinedAt: now });
    return { id, name, slug, role };
  }

  /** The user's memberships, by name. */
  async listOfUser(manager: EntityManager, userId: string): Promise<OrganizationMembership[]> {
    const rows = await manager
      .createQueryBuilder(OrganizationMember, 'm')
      .innerJoin(Organization, 'o', 'o.id = m.organizationId')
      .select(['o.id AS id', 'o.name AS name', 'o.slug AS slug', 'm.role AS role'])
      .where('m.userId = :userId', { userId })
      .orderBy('o.name')
      .addOrderBy('o.id')
      .getRawMany<OrganizationMembership>();
    return rows.map((row) => ({ id: String(row.id).toLowerCase(), name: row.name, slug: row.slug, role: row.role }));
  }

  async find(manager: EntityManager, organizationId: string): Promise<Organization | null> {
    return manager.findOneBy(Organization, { id: organizationId });
  }

  /** The user's membership of the organization, or null. */
  membership(manager: EntityManager, organizationId: string, userId: string): Promise<OrganizationMember | null> {
    return manager.findOneBy(OrganizationMember, { organizationId, userId });
  }

  /** The organization and its members with their emails, earliest member first. */
  async details(manager: EntityManager, organization: Organization): Promise<OrganizationDetails> {
    const users = manager.connection.getMetadata(this.config.userEntity).tableName;
    const rows = await manager
      .createQueryBuilder(OrganizationMember, 'm')
      .innerJoin(users, 'u', 'u.id = m.user_id')
      .select(['m.user_id AS user_id', 'u.email AS email', 'm.role AS role', 'm.joined_at AS joined_at'])
      .where('m.organization_id = :organizationId', { organizationId: organization.id })
      .orderBy('m.joined_at')
      .addOrderBy('m.user_id')
      .getRawMany<{ user_id: string; email: string; role: string; joined_at: unknown }>();
    const { driver } = manager.connection;
    const joinedAt = manager.connection.getMetadata(OrganizationMember).findColumnWithPropertyName('joinedAt')!;
    return {
      id: organization.id,
      name: organization.name,
      slug: organization.slug,
      members: rows.map((row) => ({
        userId: String(row.user_id).toLowerCase(),
        email: row.email,
        role: row.role,
        joinedAt: (driver.prepareHydratedValue(row.joined_at, joinedAt) as Date).toISOString(),
      })),
    };
  }

  async rename(manager: EntityManager, organizationId: string, name: string): Promise<void> {
    await manager.update(Organization, { id: organizationId }, { name });
  }

  /** The members' user ids (before a deletion: whose principals to invalidate). */
  async memberIds(manager: EntityManager, organizationId: string): Promise<string[]> {
    const rows = await manager.find(OrganizationMember, { select: { userId: true }, where: { organizationId } });
    return rows.map((row) => row.userId);
  }

  /** Deletes the organization; its members and invitations go with it (foreign keys, cascade). */
  async delete(manager: EntityManager, organizationId: string): Promise<void> {
    await manager.delete(OrganizationMember, { organizationId });
    await manager.delete(Organization, { id: organizationId });
  }

  /** Adds the member; resolves to false when the user is a member already (nothing changes). */
  async addMember(manager: EntityManager, organizationId: string, userId: string, role: string): Promise<boolean> {
    if (await manager.existsBy(OrganizationMember, { organizationId, userId })) return false;
    try {
      await manager.insert(OrganizationMember, { organizationId, userId, role, joinedAt: this.clock.now() });
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
    return true;
  }

  async setRole(manager: EntityManager, organizationId: string, userId: string, role: string): Promise<void> {
    await manager.update(OrganizationMember, { organizationId, userId }, { role });
  }

  async removeMember(manager: EntityManager, organizationId: string, userId: string): Promise<void> {
    await manager.delete(OrganizationMember, { organizationId, userId });
  }

  /**
   * 409 `LAST_OWNER` when the organization would keep no member holding the creator role once
   * `userId` no longer holds it. The holders' rows are locked first, in one order (PostgreSQL), so two
   * owners demoting or removing each other at once cannot both pass: the second sees the first's change.
   */
  async assertAnotherOwner(manager: EntityManager, organizationId: string, userId: string): Promise<void> {
    const creatorRole = this.config.organizations!.creatorRole;
    const query = manager
      .createQueryBuilder(OrganizationMember, 'm')
      .select('m.userId', 'userId')
      .where('m.organizationId = :organizationId AND m.role = :creatorRole', { organizationId, creatorRole })
      .orderBy('m.userId');
    const holders = await (manager.connection.options.type === 'postgres' ? query.setLock('pessimistic_write') : query).getRawMany<{ userId: string }>();
    if (!holders.some((holder) => String(holder.userId).toLowerCase() !== userId.toLowerCase())) throw new AuthError('LAST_OWNER');
  }
}
