import { describe, expect, it } from '@jest/globals';
import { auditDetailsText } from './audit-details.js';

describe('auditDetailsText', () => {
  it('stores plain values as JSON, and no details as {}', () => {
    expect(auditDetailsText(undefined)).toBe('{}');
    expect(auditDetailsText({ method: 'oidc', provider: 'google', remaining: 7, current: true, reason: null })).toBe('{"method":"oidc","provider":"google","remaining":7,"current":true,"reason":null}');
  });

  it.each(['password', 'new_password', 'newPassword', 'token', 'refreshToken', 'access_token', 'secret', 'clientSecret', 'code', 'recoveryCode', 'otp', 'passwordHash', 'apiKey', 'api_key', 'cookie', 'sessionId', 'credential', 'challenge', 'assertion', 'signature', 'authorization', 'PASSWORD'])(
    'refuses the secret-ish key %s',
    (key) => {
      expect(() => auditDetailsText({ [key]: 'x' })).toThrow(/never hold a secret/);
    },
  );

  it('accepts names that only contain such a word inside another', () => {
    expect(auditDetailsText({ passkeys: 1, passkeyId: 'p', identities: 2, provider: 'google', role: 'admin' })).toContain('"passkeys":1');
  });

  it('refuses nested, oversized and too many values', () => {
    expect(() => auditDetailsText({ nested: { a: 1 } } as never)).toThrow(TypeError);
    expect(() => auditDetailsText({ list: ['a'] } as never)).toThrow(TypeError);
    expect(() => auditDetailsText({ reason: 'x'.repeat(501) })).toThrow(TypeError);
    expect(() => auditDetailsText(Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, i])))).toThrow(TypeError);
  });
});
