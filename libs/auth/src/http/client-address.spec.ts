import { describe, expect, it } from '@jest/globals';
import type { Request } from 'express';
import { clientKeyOfAddress } from '../rate-limit/client-key.js';
import { clientAddressOf, storableAddressOf } from './client-address.js';

function requestFrom(remoteAddress: string | undefined, headers: Record<string, string | string[]> = {}): Request {
  return { socket: { remoteAddress }, headers } as unknown as Request;
}

const trustingOneHop = (header = 'x-forwarded-for') => ({ clientAddress: { trustProxy: 1, header } });
const keyOf = (request: Request, config: Parameters<typeof clientAddressOf>[1] = {}) => {
  const address = clientAddressOf(request, config);
  return address === null ? null : clientKeyOfAddress(address);
};

describe('clientAddressOf (and the limiter key of it)', () => {
  it('reads only the socket address when no proxy is trusted', () => {
    expect(keyOf(requestFrom('198.51.100.1', { 'x-forwarded-for': '203.0.113.9' }))).toBe('198.51.100.1');
    expect(clientAddressOf(requestFrom('::ffff:10.0.0.1'), {})).toBe('10.0.0.1');
  });

  it('with one trusted hop, reads the right-most entry of the header', () => {
    const request = requestFrom('10.0.0.1', { 'x-forwarded-for': '1.1.1.1, 203.0.113.9' });
    expect(keyOf(request, trustingOneHop())).toBe('203.0.113.9');
    expect(keyOf(requestFrom('10.0.0.1', { 'x-forwarded-for': ['1.1.1.1', '2001:db8::5'] }), trustingOneHop())).toBe('2001:db8:0:0::/64');
    expect(keyOf(requestFrom('10.0.0.1', { 'x-real-ip': '203.0.113.7' }), trustingOneHop('x-real-ip'))).toBe('203.0.113.7');
  });

  it('falls back to the socket address when the trusted header is absent', () => {
    expect(keyOf(requestFrom('::ffff:10.0.0.1'), trustingOneHop())).toBe('10.0.0.1');
  });

  it('refuses an unparsable trusted header and a missing socket address', () => {
    expect(keyOf(requestFrom('10.0.0.1', { 'x-forwarded-for': '1.1.1.1, garbage' }), trustingOneHop())).toBeNull();
    expect(keyOf(requestFrom('10.0.0.1', { 'x-forwarded-for': '' }), trustingOneHop())).toBeNull();
    expect(keyOf(requestFrom(undefined))).toBeNull();
  });

  it('with a hop count, skips that many proxies from the socket inwards', () => {
    const request = requestFrom('10.0.0.2', { 'x-forwarded-for': 'forged, 203.0.113.9, 10.0.0.1' });
    expect(clientAddressOf(request, { clientAddress: { trustProxy: 2, header: 'x-forwarded-for' } })).toBe('203.0.113.9');
  });

  it('with trusted proxy addresses, stops at the first address that is not one of them', () => {
    const config = { clientAddress: { trustProxy: ['loopback', '10.0.0.0/8'], header: 'x-forwarded-for' } };
    expect(clientAddressOf(requestFrom('127.0.0.1', { 'x-forwarded-for': 'forged, 203.0.113.9, 10.1.2.3' }), config)).toBe('203.0.113.9');
    // A client talking to the app directly cannot pretend to be behind the proxy.
    expect(clientAddressOf(requestFrom('198.51.100.4', { 'x-forwarded-for': '203.0.113.9' }), config)).toBe('198.51.100.4');
  });

  it('stores only the network of a valid address in session rows', () => {
    expect(storableAddressOf(requestFrom('10.0.0.1', { 'x-forwarded-for': 'garbage' }), trustingOneHop())).toBeNull();
    expect(storableAddressOf(requestFrom('10.0.0.1', { 'x-forwarded-for': '203.0.113.9' }), trustingOneHop())).toBe('203.0.113.0');
    expect(storableAddressOf(requestFrom('2001:db8:85a3:8d3:1319:8a2e:370:7348'), {})).toBe('2001:db8:85a3::');
  });
});
