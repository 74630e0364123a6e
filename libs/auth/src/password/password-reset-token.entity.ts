import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A single-use password reset token (table `password_reset_tokens`; docs/decisions/0002-schema.md). */
@Entity('password_reset_tokens')
export class PasswordResetToken {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** SHA-256 (hex) of the mailed token. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ name: 'expires_at' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: Date, nullable: true })
  usedAt: Date | null;

  @Column({ name: 'created_at' })
  createdAt: Date;
}
