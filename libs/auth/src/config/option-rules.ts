import proxyaddr from 'proxy-addr';
import { AuthConfigError } from './auth-config.error.js';
import type { RedisUrl } from './auth-options.js';
import { isPlaceholderSecret } from './placeholder-secret.js';

/** One rule per kind of option value; each throws `AuthConfigError(field, rule)` or returns the checked value. */
export function int(field: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new AuthConfigError(field, 'must be an integer', value);
  if (value < min || value > max) throw new AuthConfigError(field, `must be between ${min} and ${max}`, value);
  return value;
}

export function bool(field: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new AuthConfigError(field, 'must be true or false', value);
  return value;
}

export function oneOf<T extends string>(field: string, value: unknown, fallback: T, allowed: readonly T[]): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) throw new AuthConfigError(field, `must be one of ${allowed.join(', ')}`, value);
  return value as T;
}

/** Secrets that sign credentials: long and not a placeholder (docs/decisions/0010-secrets.md). Their value is never quoted. */
export function secret(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new AuthConfigError(field, 'is required');
  if (value.length < 32) throw new AuthConfigError(field, 'must be at least 32 characters');
  if (isPlaceholderSecret(value)) throw new AuthConfigError(field, 'is a placeholder value; generate a random one (e.g. `openssl rand -base64 32`)');
  return value;
}

export function absoluteUrl(field: string, value: unknown): URL {
  if (typeof value !== 'string') throw new AuthConfigError(field, 'is required (an absolute http(s) URL)', value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthConfigError(field, 'must be an absolute URL', value);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AuthConfigError(field, 'must be an http(s) URL', value);
  return url;
}

export function originOf(field: string, value: unknown): string {
  const url = absoluteUrl(field, value);
  if (url.origin !== value && `${url.origin}/` !== value) throw new AuthConfigError(field, 'must be an origin (scheme://host[:port])', value);
  return url.origin;
}

export function cookieName(field: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  // RFC 6265 §4.1.1: a cookie name is a token.
  if (typeof value !== 'string' || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(value)) throw new AuthConfigError(field, 'must be a cookie token', value);
  return value;
}

export function cookiePath(field: string, value: string): string {
  if (!/^\/[^;\s]*$/.test(value)) throw new AuthConfigError(field, 'must start with "/" and hold no ";" or spaces', value);
  return value;
}

export function cookieDomain(field: string, value: string): string {
  if (!/^\.?[A-Za-z0-9.-]+$/.test(value)) throw new AuthConfigError(field, 'must be a domain name', value);
  return value;
}

export function headerName(field: string, value: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(value)) throw new AuthConfigError(field, 'must be an HTTP header name', value);
  return value.toLowerCase();
}

/**
 * The start of every Redis key the limiter writes: printable ASCII without spaces (Redis keys are
 * binary-safe, but a space or control character in a prefix is surely a mistake), and no braces:
 * Redis Cluster hashes only the part of a key inside its first `{...}` (a hash tag), so a brace in
 * the prefix would put every counter in one slot, on one master.
 */
export function redisKeyPrefix(field: string, value: unknown, fallback: string, maxLength: number): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value.length === 0) throw new AuthConfigError(field, 'must be a non-empty string', value);
  if (value.length > maxLength) throw new AuthConfigError(field, `must be at most ${maxLength} characters`, value);
  if (!/^[\x21-\x7e]+$/.test(value)) throw new AuthConfigError(field, 'must be printable ASCII without spaces or control characters', value);
  if (/[{}]/.test(value)) {
    throw new AuthConfigError(field, 'must not hold "{" or "}": Redis Cluster would read them as a hash tag and put every counter in one slot', value);
  }
  return value;
}

/** A Redis option given as `{ url }` (svc's own client) rather than as a client: any object with a `url` key. */
export function isRedisUrl(value: unknown): value is RedisUrl {
  return typeof value === 'object' && value !== null && 'url' in value;
}

/** `{ url }` holds a redis:// or rediss:// URL. The URL is never quoted in the error: it may hold a password. */
export function redisUrl(field: string, value: RedisUrl): RedisUrl {
  let protocol: string | undefined;
  try {
    protocol = typeof value.url === 'string' ? new URL(value.url).protocol : undefined;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') throw new AuthConfigError(`${field}.url`, 'must be a redis:// or rediss:// URL');
  return { url: value.url };
}

/** Freezes the config, all but what it only refers to: the user entity, a Redis client, a mail transport. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) {
      if (key !== 'userEntity' && key !== 'redis' && key !== 'transport') deepFreeze((value as Record<string, unknown>)[key]);
    }
    Object.freeze(value);
  }
  return value;
}

/** Its value is never quoted: client secrets go through it too. */
export function nonEmptyString(field: string, value: unknown, maxLength = 1024): string {
  if (typeof value !== 'string' || value.length === 0) throw new AuthConfigError(field, 'is required (a non-empty string)');
  if (value.length > maxLength) throw new AuthConfigError(field, `must be at most ${maxLength} characters`);
  return value;
}

/**
 * The URL of an OAuth provider endpoint: https, or plain http on a loopback host only (127.0.0.0/8,
 * ::1, localhost) so that tests can use a local provider (RFC 9700 §2.6: no cleartext to providers).
 */
export function providerUrl(field: string, value: unknown): URL {
  const url = absoluteUrl(field, value);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) throw new AuthConfigError(field, 'must be an https URL (plain http only on a loopback host)', value);
  if (url.username || url.password) throw new AuthConfigError(field, 'must not hold credentials');
  return url;
}

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

export function stringList(field: string, value: unknown, fallback: readonly string[]): string[] {
  if (value === undefined) return [...fallback];
  if (!Array.isArray(value)) throw new AuthConfigError(field, 'must be a list of strings', value);
  return value.map((item, i) => {
    if (typeof item !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(item)) throw new AuthConfigError(`${field}[${i}]`, 'must be a scope token (RFC 6749 §3.3)', item);
    return item;
  });
}

/** Proxy addresses and CIDRs as proxy-addr reads them (`loopback`, `uniquelocal`, `10.0.0.0/8`, `::1`). */
export function trustedProxies(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.some((entry) => typeof entry !== 'string')) {
    throw new AuthConfigError('trustProxy', 'must be a hop count or a non-empty list of proxy addresses (such as ["loopback", "10.0.0.0/8"])', value);
  }
  try {
    proxyaddr.compile(value);
  } catch (error) {
    throw new AuthConfigError('trustProxy', `holds something that is not an address or CIDR: ${(error as Error).message}`);
  }
  return [...value];
}
