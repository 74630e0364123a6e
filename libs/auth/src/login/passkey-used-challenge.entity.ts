import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A passkey challenge that a registration or login has used (table `passkey_used_challenges`;
 * docs/decisions/0002-schema.md): presenting it again is a replay, refused by every instance sharing the
 * database. Kept until the challenge itself expires, then purged.
 */
@Entity('passkey_used_challenges')
export class PasskeyUsedChallenge {
  /** SHA-256 (hex) of the challenge. */
  @PrimaryColumn({ name: 'challenge_hash', type: 'varchar', length: 64 })
  challengeHash: string;

  @Column({ name: 'expires_at' })
  expiresAt: Date;
}
