import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A user's authenticator-app secret (table `mfa_totp`; docs/guides/two-step.md): pending from
 * setup until a first code enables it. The secret is stored encrypted only (AES-256-GCM).
 */
@Entity('mfa_totp')
export class MfaTotp {
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  /** base64url of IV, ciphertext and tag; the user id is its additional data. */
  @Column({ name: 'secret_ciphertext', type: 'varchar', length: 255 })
  secretCiphertext: string;

  /** Which key encrypted it (a truncated SHA-256 of the key), so an earlier key can still decrypt it. */
  @Column({ name: 'key_id', type: 'varchar', length: 16 })
  keyId: string;

  /** Null while setup is pending. */
  @Column({ name: 'enabled_at', type: Date, nullable: true })
  enabledAt: Date | null;

  /** The RFC 6238 time step of the last code accepted: a code of that step or an earlier one is refused (no replay). */
  @Column({ name: 'last_used_step', type: 'integer', nullable: true })
  lastUsedStep: number | null;

  @Column({ name: 'created_at' })
  createdAt: Date;
}
