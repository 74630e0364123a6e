import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A role a user holds (table `user_roles`; docs/guides/roles-and-permissions.md): one row per user and
 * role, with when and by whom it was granted; the rows go with their user.
 */
@Entity('user_roles')
export class UserRole {
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  role: string;

  @Column({ name: 'granted_at' })
  grantedAt: Date;

  /** The user who granted it; null for a default role at signup, or a grant from the application's own code without an actor. */
  @Column({ name: 'granted_by', type: 'varchar', length: 36, nullable: true })
  grantedBy: string | null;
}
