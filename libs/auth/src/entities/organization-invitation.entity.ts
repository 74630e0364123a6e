import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An invitation to join an organization (table `organization_invitations`; docs/guides/organizations.md):
 * for one normalised email and role, single use, expiring; the mailed token is stored as its SHA-256
 * only. A revoked invitation is deleted.
 */
@Entity('organization_invitations')
export class OrganizationInvitation {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 36 })
  organizationId: string;

  /** The invited address, normalised as svc stores emails. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 64 })
  role: string;

  /** SHA-256 (hex) of the mailed token. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  /** The member who invited; null once that user is deleted. */
  @Column({ name: 'invited_by', type: 'varchar', length: 36, nullable: true })
  invitedBy: string | null;

  @Column({ name: 'expires_at' })
  expiresAt: Date;

  @Column({ name: 'accepted_at', type: Date, nullable: true })
  acceptedAt: Date | null;

  @Column({ name: 'created_at' })
  createdAt: Date;
}
