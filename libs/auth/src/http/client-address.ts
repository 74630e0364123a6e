import type { Request } from 'express';
import proxyaddr from 'proxy-addr';
import type { AuthConfig } from '../config/auth-config.js';
import { networkOf } from './ip-address.js';

type TrustFunction = (address: string, hop: number) => boolean;

const compiledTrust = new WeakMap<object, TrustFunction>();

/**
 * The client's address, the one function every part of the library uses (the rate limiter, session
 * rows, events). Without `trustProxy`, the socket's address (docs/guides/rate-limiting.md). With it,
 * proxy-addr walks the `clientIpHeader` list from the socket towards the client, skipping the
 * trusted proxies (a hop count, or their addresses and CIDRs), as Express's `trust proxy` does;
 * entries left of the first untrusted one come from the client and are never believed. IPv4-mapped
 * IPv6 is shown as IPv4. Null when there is no socket address; an entry that is not an address is
 * returned as it is, and refused by whoever needs an address.
 */
export function clientAddressOf(request: Request, config: Pick<AuthConfig, 'clientAddress'>): string | null {
  const socket = request.socket?.remoteAddress;
  if (!socket) return null;
  const settings = config.clientAddress;
  if (!settings) return unmapped(socket);
  const header = request.headers[settings.header];
  const forwarded = Array.isArray(header) ? header.join(',') : (header ?? '');
  // A trusted header that is there but names no address: refused, not read as its absence.
  if (header !== undefined && forwarded.trim() === '') return '';
  // proxy-addr reads X-Forwarded-For; the configured header is handed to it under that name.
  const seen = { socket: { remoteAddress: socket }, headers: { 'x-forwarded-for': forwarded } } as unknown as Request;
  return unmapped(proxyaddr(seen, trustOf(settings)));
}

/**
 * The address as a session row or refresh family stores it: its network only (IPv4 /24, IPv6 /48;
 * docs/guides/devices.md), or null when the client address is not a valid IP address.
 */
export function storableAddressOf(request: Request, config: Pick<AuthConfig, 'clientAddress'>): string | null {
  const address = clientAddressOf(request, config);
  return address === null ? null : networkOf(address);
}

function trustOf(settings: NonNullable<AuthConfig['clientAddress']>): TrustFunction {
  let trust = compiledTrust.get(settings);
  if (!trust) {
    const proxies = settings.trustProxy;
    trust = typeof proxies === 'number' ? (_address: string, hop: number) => hop < proxies : proxyaddr.compile([...proxies]);
    compiledTrust.set(settings, trust);
  }
  return trust;
}

function unmapped(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
