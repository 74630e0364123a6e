import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A key a user created for a script or another service (table `api_keys`; docs/guides/machine-access.md):
 * never the key itself, only its SHA-256 (`key_hash`, unique: the one indexed lookup per request) and
 * its `start` (the prefix and first 4 random characters) for the list.
 */
@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  /** SHA-256 of the key, hex. */
  @Column({ name: 'key_hash', type: 'varchar', length: 64, unique: true })
  keyHash: string;

  /** The prefix and the first 4 random characters, so the user can tell their keys apart. */
  @Column({ type: 'varchar', length: 40 })
  start: string;

  /** The permissions the key may use, sorted (JSON text). */
  @Column({ type: 'simple-json' })
  scopes: string[];

  @Column({ name: 'created_at' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: Date, nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'last_used_at', type: Date, nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: Date, nullable: true })
  revokedAt: Date | null;
}
