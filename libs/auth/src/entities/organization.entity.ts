import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An organization (table `organizations`; docs/guides/organizations.md): its members and invitations go with it. */
@Entity('organizations')
export class Organization {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** Unique among organizations: lower-case letters, digits and single hyphens. */
  @Column({ type: 'varchar', length: 64, unique: true })
  slug: string;

  @Column({ name: 'created_at' })
  createdAt: Date;
}
