import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per login of the session strategy (table `sessions`; docs/decisions/0002-schema.md). */
@Entity('sessions')
export class Session {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** SHA-256 (hex) of the cookie's token; the token itself is never stored. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ name: 'expires_at' })
  expiresAt: Date;

  @Column({ name: 'created_at' })
  createdAt: Date;

  @Column({ name: 'last_seen_at' })
  lastSeenAt: Date;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;

  /**
   * The last real sign-in of this credential (a login by any method, the second step, a re-authentication);
   * a refresh never moves it (docs/decisions/0028-fresh-sign-in.md). Null only for a row no migration could date: never fresh.
   */
  @Column({ name: 'auth_time', type: Date, nullable: true })
  authTime: Date | null;

  /** The administrator acting as the user through this session, or null (docs/guides/administration.md). */
  @Column({ name: 'impersonated_by', type: 'varchar', length: 36, nullable: true })
  impersonatedBy: string | null;
}
