import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A single-use refresh token of the jwt strategy, one of a family (table `refresh_tokens`; docs/decisions/0002-schema.md). */
@Entity('refresh_tokens')
export class RefreshToken {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** SHA-256 (hex) of the cookie's token. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  /** All tokens rotated from one login share it; it is the access token's `sid`. */
  @Column({ name: 'family_id', type: 'varchar', length: 36 })
  familyId: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ name: 'expires_at' })
  expiresAt: Date;

  @Column({ name: 'consumed_at', type: Date, nullable: true })
  consumedAt: Date | null;

  @Column({ name: 'revoked_at', type: Date, nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'created_at' })
  createdAt: Date;
}
