import { describe, expect, it } from '@jest/globals';
import { networkOf } from './ip-address.js';

describe('networkOf (what a session row or refresh family keeps of an address)', () => {
  it.each([
    ['203.0.113.9', '203.0.113.0'],
    ['10.1.2.255', '10.1.2.0'],
    ['::ffff:198.51.100.77', '198.51.100.0'],
    ['::ffff:c633:644d', '198.51.100.0'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3::'],
    ['2001:DB8:85A3::1', '2001:db8:85a3::'],
    ['2001:db8::1', '2001:db8::'],
    ['2001:0:0:1::1', '2001::'],
    ['::1', '::'],
    ['fe80::1%eth0', 'fe80::'],
    ['64:ff9b::192.0.2.33', '64:ff9b::'],
  ])('%s is kept as %s (IPv4 /24, IPv6 /48)', (address, network) => {
    expect(networkOf(address)).toBe(network);
  });

  it.each(['', 'garbage', '203.0.113', '1.2.3.4.5', '2001:db8::g', 'localhost'])('%j is not an address: nothing is kept', (value) => {
    expect(networkOf(value)).toBeNull();
  });
});
