import { isIP } from 'node:net';
import { deriveKey } from '../crypto/derive-key.js';
import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { PasskeyOptions } from './auth-options.js';
import { int, nonEmptyString, oneOf, originOf } from './option-rules.js';

/** An Android app's origin in a WebAuthn response: the SHA-256 of its signing certificate, base64url. */
const ANDROID_APP_ORIGIN = /^android:apk-key-hash:[A-Za-z0-9_-]{43}$/;

/**
 * The `passkeys` section (docs/guides/passkeys.md): absent, passkeys are off. What cannot work stops
 * startup, naming the field: a relying party id that is an IP address (WebAuthn L2 §5.1.2: the
 * rp id is a registrable domain suffix of the origin's host, never an address), a `baseUrl` that
 * is not a secure context (WebAuthn L2 §5: https, or http on localhost), an extra origin that is
 * not an origin. The challenge cookie is signed with a key derived from `secret` (or, without one,
 * from `jwt.secretKey` or an OAuth `secretKey`, as the limiter's account key is).
 */
export function validatePasskeys(section: PasskeyOptions | undefined, baseUrl: URL, keySource: string | undefined): AuthConfig['passkeys'] {
  if (section === undefined) return undefined;
  if (section === null || typeof section !== 'object' || Array.isArray(section)) throw new AuthConfigError('passkeys', 'must be an object', section);
  const rpId = baseUrl.hostname;
  if (isIP(rpId.replace(/^\[|\]$/g, '')) !== 0) {
    throw new AuthConfigError('baseUrl', 'must have a domain name as its host with passkeys: the host is the WebAuthn relying party id, which cannot be an IP address', baseUrl.href);
  }
  if (baseUrl.protocol !== 'https:' && !isLocalhost(rpId)) {
    throw new AuthConfigError('baseUrl', 'must be an https URL with passkeys (plain http only on localhost): browsers offer WebAuthn to secure contexts only', baseUrl.href);
  }
  if (keySource === undefined) {
    throw new AuthConfigError('secret', 'is required with passkeys: the challenge cookie is signed with a key derived from it (or from jwt.secretKey or an OAuth secretKey)');
  }
  return {
    rpId,
    rpName: section.rpName === undefined ? rpId : nonEmptyString('passkeys.rpName', section.rpName, 64),
    origins: [baseUrl.origin, ...extraOrigins(section.extraOrigins)],
    // WebAuthn L2 §5.4: the ceremony's timeout; W3C recommends 300 s for a ceremony that needs user verification.
    challengeTtlSeconds: int('passkeys.challengeTtlSeconds', section.challengeTtlSeconds, 300, 30, 600),
    userVerification: oneOf('passkeys.userVerification', section.userVerification, 'required', ['required', 'preferred'] as const),
    challengeKey: deriveKey(keySource, 'passkey challenges'),
  };
}

function extraOrigins(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new AuthConfigError('passkeys.extraOrigins', 'must be a list of origins', value);
  return value.map((origin: unknown, i) => {
    const field = `passkeys.extraOrigins[${i}]`;
    if (typeof origin === 'string' && ANDROID_APP_ORIGIN.test(origin)) return origin;
    const url = new URL(originOf(field, origin));
    if (url.protocol !== 'https:' && !isLocalhost(url.hostname)) throw new AuthConfigError(field, 'must be an https origin (plain http only on localhost), or android:apk-key-hash:<base64url SHA-256>', origin);
    return url.origin;
  });
}

function isLocalhost(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost');
}
