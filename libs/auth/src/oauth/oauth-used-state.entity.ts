import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An OAuth `state` that a callback has used (table `oauth_used_states`; docs/decisions/0002-schema.md): a second
 * callback with it is a replay. Kept until the state token itself expires, then purged.
 */
@Entity('oauth_used_states')
export class OAuthUsedState {
  /** SHA-256 (hex) of the state value. */
  @PrimaryColumn({ name: 'state_hash', type: 'varchar', length: 64 })
  stateHash: string;

  /** When the state token expires: from then on no callback can present it, and the row may go. */
  @Column({ name: 'expires_at' })
  expiresAt: Date;
}
