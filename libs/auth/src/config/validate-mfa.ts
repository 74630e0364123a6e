import { createHash } from 'node:crypto';
import { deriveKey } from '../crypto/derive-key.js';
import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { MfaOptions } from './auth-options.js';
import type { LoginMethod } from './login-methods.js';
import { bool, int, nonEmptyString, secret } from './option-rules.js';

/** The HKDF label of the TOTP secrets' encryption key; a new label would be a new key. */
const SECRET_KEY_PURPOSE = 'mfa totp secrets';

/**
 * The `mfa` section (docs/guides/two-step.md): absent, two-step login is off. Setup and disable
 * confirm with the account's password, so the section needs the password method; its keys (the
 * stored secrets' cipher, the challenge's signature) are derived from the module's `secret`, else,
 * as the limiter's account key is, from `jwt.secretKey` or an OAuth `secretKey`, so it needs one of
 * them. `challengeProviderLogins` (default true) set to true explicitly needs a provider method, or it would not take effect.
 */
export function validateMfa(section: MfaOptions | undefined, loginMethods: readonly LoginMethod[], secretToDeriveFrom: string | undefined): AuthConfig['mfa'] {
  if (section === undefined) return undefined;
  if (section === null || typeof section !== 'object' || Array.isArray(section)) throw new AuthConfigError('mfa', 'must be an object', section);
  if (!loginMethods.includes('password')) {
    throw new AuthConfigError('mfa', "is given but the password login method is not on: setup and disable confirm with the password, so it would not take effect (add 'password' to the login extra, or leave the section out)");
  }
  if (secretToDeriveFrom === undefined) {
    throw new AuthConfigError('secret', 'is required with the mfa section: the stored TOTP secrets are encrypted, and the challenge signed, with keys derived from it (or from jwt.secretKey or an OAuth secretKey)');
  }
  // OWASP ASVS 5.0 V6: a second factor on every way in; leaving provider logins out is a choice made in the options.
  const challengeProviderLogins = bool('mfa.challengeProviderLogins', section.challengeProviderLogins, true);
  // Said explicitly, it must take effect; the default simply has nothing to challenge without a provider method.
  if (section.challengeProviderLogins === true && !loginMethods.some((method) => method === 'oauth2' || method === 'oidc')) {
    throw new AuthConfigError('mfa.challengeProviderLogins', 'is true but no provider login method (oauth2, oidc) is on: it would not take effect');
  }
  const previous = section.previousSecrets ?? [];
  if (!Array.isArray(previous)) throw new AuthConfigError('mfa.previousSecrets', 'must be a list of earlier secrets', previous);
  const secrets = [secretToDeriveFrom, ...previous.map((value, i) => secret(`mfa.previousSecrets[${i}]`, value))];
  return {
    issuer: nonEmptyString('mfa.issuer', section.issuer, 64),
    // A challenge is a password already checked: short-lived, at least a minute to find the phone.
    challengeTtlSeconds: int('mfa.challengeTtlSeconds', section.challengeTtlSeconds, 300, 60, 900),
    challengeProviderLogins,
    secretKeys: secrets.map((value) => {
      const key = deriveKey(value, SECRET_KEY_PURPOSE);
      return { id: keyIdOf(key), key };
    }),
    challengeKey: deriveKey(secretToDeriveFrom, 'mfa challenges'),
  };
}

/** Names a key in the rows it encrypted without revealing it: a truncated SHA-256 of the key. */
function keyIdOf(key: string): string {
  return createHash('sha256').update(`svc key id ${key}`).digest('hex').slice(0, 16);
}
