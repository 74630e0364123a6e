import type { DataSource } from 'typeorm';
import type { SvcUser } from '../entities/user.entity.js';
import { OrganizationMember } from '../entities/organization-member.entity.js';

/** The organization a credential acts in, as its lookup found it: the membership's organization and role. */
export interface CredentialOrganization {
  readonly id: string;
  readonly role: string;
}

/** Where a user row carries the active organization loaded with its credential (a symbol: never a column, never serialised by accident). */
const ORGANIZATION = Symbol('svc:active-organization');
const ID_ALIAS = 'svc_org_id';
const ROLE_ALIAS = 'svc_org_role';

/** The row, carrying the credential's active organization (null: none) for `/me`, `request.user` and the organization guards. */
export function withOrganization<U extends SvcUser>(user: U, organization: CredentialOrganization | null): U {
  (user as unknown as Record<symbol, CredentialOrganization | null>)[ORGANIZATION] = organization === null ? null : Object.freeze({ ...organization });
  return user;
}

/** The active organization loaded with the credential: null for none, undefined when nobody looked (organizations off). */
export function organizationOf(user: SvcUser): CredentialOrganization | null | undefined {
  return (user as unknown as Record<symbol, CredentialOrganization | null | undefined>)[ORGANIZATION];
}

/**
 * The parts of the one statement that resolves a credential (docs/guides/organizations.md): a left
 * join of the membership of the credential's `active_organization_id`, by the primary key of
 * `organization_members`, so a removed member, or a deleted organization, has none at its next
 * request, with no second round trip.
 */
export function organizationJoin(dataSource: DataSource, credentialAlias: string, userIdColumn: string): { select: string; join: string } {
  const { driver } = dataSource;
  const table = driver.escape(dataSource.getMetadata(OrganizationMember).tableName);
  return {
    select: `om.organization_id AS ${driver.escape(ID_ALIAS)}, om.role AS ${driver.escape(ROLE_ALIAS)}`,
    join: `LEFT JOIN ${table} om ON om.organization_id = ${credentialAlias}.active_organization_id AND om.user_id = ${userIdColumn}`,
  };
}

/** The active organization of a row read with `organizationJoin`. */
export function organizationFromRow(row: Record<string, unknown>): CredentialOrganization | null {
  const id = row[ID_ALIAS];
  const role = row[ROLE_ALIAS];
  return typeof id === 'string' && typeof role === 'string' ? { id: id.toLowerCase(), role } : null;
}
