import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A user's membership of an organization (table `organization_members`; docs/guides/organizations.md):
 * one row per organization and user, with the user's organization role; the rows go with either.
 */
@Entity('organization_members')
export class OrganizationMember {
  @PrimaryColumn({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId: string;

  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  /** A role of the `organizations` policy. */
  @Column({ type: 'varchar', length: 64 })
  role: string;

  @Column({ name: 'joined_at' })
  joinedAt: Date;
}
