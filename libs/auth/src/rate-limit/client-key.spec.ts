import { describe, expect, it } from '@jest/globals';
import type { Request } from 'express';
import { clientKeyOf, clientKeyOfAddress } from './client-key.js';

function requestFrom(remoteAddress: string | undefined, headers: Record<string, string | string[]> = {}): Request {
  return { socket: { remoteAddress }, headers } as unknown as Request;
}

describe('clientKeyOfAddress', () => {
  it('keys IPv4 as it is', () => {
    expect(clientKeyOfAddress('203.0.113.7')).toBe('203.0.113.7');
  });

  it('keys IPv4-mapped IPv6 as plain IPv4, dotted or hex', () => {
    expect(clientKeyOfAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOfAddress('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('keys IPv6 by its /64, whatever the spelling', () => {
    expect(clientKeyOfAddress('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOfAddress('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOfAddress('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKeyOfAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientKeyOfAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKeyOfAddress('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('refuses what is not an address', () => {
    for (const bad of ['', 'unknown', '1.2.3.4:80', '[::1]', '01.2.3.4', '1.2.3', 'for=1.2.3.4']) {
      expect(clientKeyOfAddress(bad)).toBeNull();
    }
  });
});

describe('clientKeyOf', () => {
  it('reads only the socket address when no header is trusted', () => {
    expect(clientKeyOf(requestFrom('198.51.100.1', { 'x-forwarded-for': '203.0.113.9' }))).toBe('198.51.100.1');
  });

  it('reads the right-most entry of the trusted header', () => {
    const request = requestFrom('10.0.0.1', { 'x-forwarded-for': '1.1.1.1, 203.0.113.9' });
    expect(clientKeyOf(request, 'x-forwarded-for')).toBe('203.0.113.9');
    expect(clientKeyOf(requestFrom('10.0.0.1', { 'x-forwarded-for': ['1.1.1.1', '2001:db8::5'] }), 'x-forwarded-for')).toBe('2001:db8:0:0::/64');
  });

  it('falls back to the socket address when the trusted header is absent', () => {
    expect(clientKeyOf(requestFrom('::ffff:10.0.0.1'), 'x-forwarded-for')).toBe('10.0.0.1');
  });

  it('refuses an unparsable trusted header and a missing socket address', () => {
    expect(clientKeyOf(requestFrom('10.0.0.1', { 'x-forwarded-for': '1.1.1.1, garbage' }), 'x-forwarded-for')).toBeNull();
    expect(clientKeyOf(requestFrom('10.0.0.1', { 'x-forwarded-for': '' }), 'x-forwarded-for')).toBeNull();
    expect(clientKeyOf(requestFrom(undefined))).toBeNull();
  });
});
