import { Inject, Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';

/** NIST SP 800-38D §8.2: a random 96-bit IV per encryption (a key never sees 2^32 of them here). */
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A TOTP secret as stored: its ciphertext, and the id of the key that encrypted it. */
export interface SealedSecret {
  ciphertext: string;
  keyId: string;
}

/**
 * Encrypts authenticator secrets at rest (docs/guides/two-step.md): AES-256-GCM under a key
 * derived from the module's secret (HKDF-SHA256, its own label), a random IV each time, and the
 * user's id as additional data, so a ciphertext copied onto another user's row does not decrypt.
 * Keys of earlier secrets (`mfa.previousSecrets`) still open what they sealed; `isCurrent` tells
 * the caller to seal it again under the current key.
 */
@Injectable()
export class TotpSecretCipher {
  private readonly keys: ReadonlyMap<string, Buffer>;
  private readonly currentId: string;

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    const keys = config.mfa?.secretKeys ?? [];
    this.keys = new Map(keys.map(({ id, key }) => [id, Buffer.from(key, 'base64url')]));
    this.currentId = keys[0]?.id ?? '';
  }

  seal(secret: Uint8Array, userId: string): SealedSecret {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(this.currentId), iv);
    cipher.setAAD(Buffer.from(userId, 'utf8'));
    const body = Buffer.concat([cipher.update(secret), cipher.final()]);
    return { ciphertext: Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url'), keyId: this.currentId };
  }

  /** The secret's bytes; throws (fails closed) on an unknown key, a forged or moved ciphertext. */
  open(sealed: SealedSecret, userId: string): Buffer {
    const raw = Buffer.from(sealed.ciphertext, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) throw new Error('svc: stored TOTP secret is malformed');
    const decipher = createDecipheriv('aes-256-gcm', this.key(sealed.keyId), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(userId, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
  }

  /** Whether `keyId` is the current key's: a secret sealed under an earlier one is sealed again at its next use. */
  isCurrent(keyId: string): boolean {
    return keyId === this.currentId;
  }

  private key(id: string): Buffer {
    const key = this.keys.get(id);
    if (!key) throw new Error('svc: stored TOTP secret was encrypted under a key that is no longer configured (mfa.previousSecrets)');
    return key;
  }
}
