import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One login of the jwt credential and every refresh token rotated from it (table `refresh_families`;
 * docs/decisions/0002-schema.md): the device a user sees in GET /sessions, the access token's `sid`, and where
 * its revocation and absolute end are recorded.
 */
@Entity('refresh_families')
export class RefreshFamily {
  /** The family id: `refresh_tokens.family_id` and the access token's `sid`. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ name: 'created_at' })
  createdAt: Date;

  /** The last refresh (or the login). */
  @Column({ name: 'last_used_at' })
  lastUsedAt: Date;

  @Column({ name: 'user_agent', type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;

  /** The client's network at login (IPv4 /24, IPv6 /48), never its address (docs/guides/devices.md). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  /** The absolute end: `created_at` + `jwt.refreshFamilyTtlSeconds`, whatever the refreshes. */
  @Column({ name: 'expires_at' })
  expiresAt: Date;

  @Column({ name: 'revoked_at', type: Date, nullable: true })
  revokedAt: Date | null;

  /**
   * The last real sign-in of this credential (a login by any method, the second step, a re-authentication);
   * a refresh never moves it (docs/decisions/0028-fresh-sign-in.md). Null only for a row no migration could date: never fresh.
   */
  @Column({ name: 'auth_time', type: Date, nullable: true })
  authTime: Date | null;

  /** The administrator acting as the user through this family, or null (docs/guides/administration.md). */
  @Column({ name: 'impersonated_by', type: 'varchar', length: 36, nullable: true })
  impersonatedBy: string | null;
}
