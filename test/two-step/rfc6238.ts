import { createHmac } from 'node:crypto';

/**
 * RFC 6238 (and RFC 4226's dynamic truncation), written here from the RFCs with node:crypto only,
 * so the tests compute codes independently of the library under test (which uses otpauth).
 */
export function totpAt(secret: Buffer, step: number, options: { digits?: number; algorithm?: 'sha1' | 'sha256' | 'sha512' } = {}): string {
  const digits = options.digits ?? 6;
  // RFC 4226 §5.2: the counter as an 8-byte big-endian value.
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const hmac = createHmac(options.algorithm ?? 'sha1', secret).update(counter).digest();
  // RFC 4226 §5.3: dynamic truncation.
  const offset = hmac[hmac.length - 1] & 0x0f;
  const binary = ((hmac[offset] & 0x7f) << 24) | (hmac[offset + 1] << 16) | (hmac[offset + 2] << 8) | hmac[offset + 3];
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238 §4.2: T = floor((now - T0) / X), T0 = 0, X = 30 s. */
export function stepOf(at: Date, periodSeconds = 30): number {
  return Math.floor(at.getTime() / 1000 / periodSeconds);
}

/** RFC 4648 §6 base32 (no padding), as the setup's `secret` is given. */
export function fromBase32(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const character of text.replace(/=+$/, '').toUpperCase()) {
    const index = alphabet.indexOf(character);
    if (index < 0) throw new Error(`not base32: ${character}`);
    bits += index.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => parseInt(byte, 2)));
}
