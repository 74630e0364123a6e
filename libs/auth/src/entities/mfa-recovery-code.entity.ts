import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One single-use recovery code of a user (table `mfa_recovery_codes`; docs/guides/two-step.md), stored as its SHA-256. */
@Entity('mfa_recovery_codes')
export class MfaRecoveryCode {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  /** SHA-256 (hex) of the normalised code. */
  @Column({ name: 'code_hash', type: 'varchar', length: 64, unique: true })
  codeHash: string;

  @Column({ name: 'used_at', type: Date, nullable: true })
  usedAt: Date | null;

  @Column({ name: 'created_at' })
  createdAt: Date;
}
