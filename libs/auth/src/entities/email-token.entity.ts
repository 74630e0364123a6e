import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What a mailed email token proves when it comes back. */
export type EmailTokenPurpose = 'verify' | 'change' | 'cancel';

/**
 * A single-use token mailed for an email address (table `email_tokens`; docs/decisions/0002-schema.md): `verify`
 * proves the user receives mail at their email, `change` that they receive it at `newEmail`, `cancel`
 * (the link of the notice to the old address) that the old address refuses a pending change.
 */
@Entity('email_tokens')
export class EmailToken {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** SHA-256 (hex) of the mailed token. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ type: 'varchar', length: 16 })
  purpose: EmailTokenPurpose;

  /** The address a `change` token switches the user to (normalised). */
  @Column({ name: 'new_email', type: 'varchar', length: 320, nullable: true })
  newEmail: string | null;

  /** The session or refresh family that asked for a change: the one credential the change leaves. */
  @Column({ name: 'requested_by', type: 'varchar', length: 36, nullable: true })
  requestedBy: string | null;

  @Column({ name: 'expires_at' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: Date, nullable: true })
  usedAt: Date | null;

  @Column({ name: 'created_at' })
  createdAt: Date;
}
