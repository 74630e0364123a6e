import type { Request } from 'express';

/**
 * The direct client address (the socket's), IPv4-mapped IPv6 shown as IPv4. Headers such as
 * X-Forwarded-For are not read here: they are opt-in for the rate limiter only (spec: Authentication 7).
 */
export function clientIpOf(request: Request): string | null {
  const address = request.socket?.remoteAddress;
  if (!address) return null;
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
