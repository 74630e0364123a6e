import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An authenticator counter is an unsigned 32-bit integer (WebAuthn L2 §6.1): a bigint column, read back as a number. */
const COUNTER = { to: (value: number) => value, from: (value: string | number) => Number(value) };

/**
 * A WebAuthn credential a user registered (table `passkeys`; docs/decisions/0002-schema.md): what it takes to
 * verify its assertions (the credential id, the COSE public key, the signature counter) and what the
 * user sees in their list (a name, when it was added and last used).
 */
@Entity('passkeys')
export class Passkey {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  /** The credential id, base64url (WebAuthn L2 §5.8.3: at most 1023 bytes). */
  @Column({ name: 'credential_id', type: 'varchar', length: 1400, unique: true })
  credentialId: string;

  /** The COSE_Key (RFC 9052 §7) of the credential, base64url. */
  @Column({ name: 'public_key', type: 'varchar', length: 4096 })
  publicKey: string;

  /** The signature counter last seen (0 for authenticators that keep none). */
  @Column({ type: 'bigint', transformer: COUNTER })
  counter: number;

  /** How the browser can reach the authenticator (`internal`, `hybrid`, `usb`, ...), comma-separated. */
  @Column({ type: 'varchar', length: 256 })
  transports: string;

  /** `singleDevice` or `multiDevice` (a synced passkey). */
  @Column({ name: 'device_type', type: 'varchar', length: 16 })
  deviceType: string;

  /** Whether a multi-device passkey was backed up (synced) when last seen. */
  @Column({ name: 'backed_up', type: 'boolean' })
  backedUp: boolean;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ name: 'created_at' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: Date, nullable: true })
  lastUsedAt: Date | null;
}
