import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One entry of the activity log (table `auth_audit_events`; docs/guides/account-security.md): what
 * happened to an account, when, from which network and user agent, and who did it. `user_id` and
 * `actor_id` are plain values, no foreign key: the entry outlives the account it names.
 */
@Entity('auth_audit_events')
export class AuditEvent {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column()
  at: Date;

  /** The account the entry is about; null only when no account is known. */
  @Column({ name: 'user_id', type: 'varchar', length: 36, nullable: true })
  userId: string | null;

  /** Who acted when it was someone else (an administrator); null for the user themselves. */
  @Column({ name: 'actor_id', type: 'varchar', length: 36, nullable: true })
  actorId: string | null;

  @Column({ type: 'varchar', length: 64 })
  action: string;

  /** The client's network (IPv4 /24, IPv6 /48), as session rows store it; null when unknown. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;

  /** JSON text of the entry's non-secret details (`{}` when none). */
  @Column({ type: 'text' })
  details: string;
}
