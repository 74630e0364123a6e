import { describe, expect, it } from '@jest/globals';
import { accessTokenClaimsOf, authTimeOfClaims } from './access-token-claims.js';

const NOW = new Date('2026-11-21T10:00:00Z');
const IAT = NOW.getTime() / 1000;
const BASE = { sub: '00000000-0000-4000-8000-000000000001', sid: '00000000-0000-4000-8000-000000000002', jti: 'j', typ: 'access', iat: IAT, exp: IAT + 600 };

// docs/decisions/0028-fresh-sign-in.md: auth_time is the family's last sign-in, never after the token itself.
describe('accessTokenClaimsOf: auth_time', () => {
  it('takes a numeric auth_time not after iat, and a token without one', () => {
    expect(accessTokenClaimsOf({ ...BASE, auth_time: IAT - 60 }, NOW)?.auth_time).toBe(IAT - 60);
    expect(accessTokenClaimsOf(BASE, NOW)).not.toBeNull();
  });

  it('refuses an auth_time after iat, or one that is not a number', () => {
    expect(accessTokenClaimsOf({ ...BASE, auth_time: IAT + 1 }, NOW)).toBeNull();
    expect(accessTokenClaimsOf({ ...BASE, auth_time: String(IAT) }, NOW)).toBeNull();
    expect(accessTokenClaimsOf({ ...BASE, auth_time: Number.NaN }, NOW)).toBeNull();
  });

  it('authTimeOfClaims: a date, or null without the claim (never fresh)', () => {
    expect(authTimeOfClaims({ auth_time: IAT })).toEqual(NOW);
    expect(authTimeOfClaims({})).toBeNull();
  });
});
