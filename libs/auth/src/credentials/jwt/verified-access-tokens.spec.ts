import { describe, expect, it } from '@jest/globals';
import type { AccessTokenClaims } from './access-token-claims.js';
import { VerifiedAccessTokens } from './verified-access-tokens.js';

const NOW = new Date('2026-11-25T10:00:00.000Z');
const seconds = NOW.getTime() / 1000;
const claims = (overrides: Partial<AccessTokenClaims> = {}): AccessTokenClaims => ({
  sub: '0b6b7a4e-6f0e-4d4e-9a51-4c8b8e0f1a11',
  sid: '5f1d2c3b-8a9e-4f70-b1c2-d3e4f5a6b7c8',
  jti: 'j1',
  typ: 'access',
  iat: seconds,
  exp: seconds + 600,
  ...overrides,
});
const at = (offsetSeconds: number) => new Date(NOW.getTime() + offsetSeconds * 1000);

describe('VerifiedAccessTokens', () => {
  it('is keyed by the SHA-256 of the token, never the token', () => {
    const digest = VerifiedAccessTokens.digestOf('header.payload.signature');
    expect(digest).toMatch(/^[\w-]{43}$/);
    expect(digest).not.toContain('payload');
    expect(VerifiedAccessTokens.digestOf('header.payload.signaturf')).not.toBe(digest);
  });

  it('gives back the claims of a token it was told of, until exp (checked at every use), then forgets it', () => {
    const tokens = new VerifiedAccessTokens();
    tokens.remember('d', claims());
    expect(tokens.claimsAt('d', at(599))).toMatchObject({ sub: claims().sub, exp: seconds + 600 });
    expect(tokens.claimsAt('d', at(600))).toBeUndefined();
    // Gone: an earlier time does not bring it back.
    expect(tokens.claimsAt('d', at(0))).toBeUndefined();
    expect(tokens.claimsAt('unknown', at(0))).toBeUndefined();
  });

  it('checks nbf and a future iat again at every use, as jose and accessTokenClaimsOf do', () => {
    const tokens = new VerifiedAccessTokens();
    tokens.remember('nbf', claims({ nbf: seconds + 60 }));
    expect(tokens.claimsAt('nbf', at(59))).toBeUndefined();
    tokens.remember('iat', claims({ iat: seconds + 60 }));
    expect(tokens.claimsAt('iat', at(54))).toBeUndefined();
    tokens.remember('iat', claims({ iat: seconds + 60 }));
    expect(tokens.claimsAt('iat', at(55))).toBeDefined();
  });

  it('holds at most its bound: the least recently used goes first', () => {
    const tokens = new VerifiedAccessTokens(2);
    tokens.remember('a', claims());
    tokens.remember('b', claims());
    expect(tokens.claimsAt('a', NOW)).toBeDefined();
    tokens.remember('c', claims());
    expect(tokens.claimsAt('b', NOW)).toBeUndefined();
    expect(tokens.claimsAt('a', NOW)).toBeDefined();
    expect(tokens.claimsAt('c', NOW)).toBeDefined();
  });

  it('hands out frozen claims, so that no request changes what the next one gets', () => {
    const tokens = new VerifiedAccessTokens();
    tokens.remember('d', claims());
    expect(Object.isFrozen(tokens.claimsAt('d', NOW))).toBe(true);
  });
});
