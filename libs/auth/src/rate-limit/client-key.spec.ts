import { describe, expect, it } from '@jest/globals';
import { clientKeyOfAddress } from './client-key.js';

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
