import { User } from '../entities/user.entity.js';
import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { AuthModuleExtras, AuthOptions } from './auth-options.js';
import { isPlaceholderSecret } from './placeholder-secret.js';

const STRATEGIES = ['session', 'jwt', 'oidc', 'oauth2'] as const;

/**
 * Checks every option on its own, fills in the defaults and freezes the result.
 * Pure: the same input gives the same config or the same error.
 */
export function validateAuthOptions(options: AuthOptions, extras: AuthModuleExtras): AuthConfig {
  if (!STRATEGIES.includes(extras.strategy)) {
    throw new AuthConfigError('strategy', `must be one of ${STRATEGIES.join(', ')}`);
  }
  const baseUrl = absoluteUrl('baseUrl', options.baseUrl);
  const prefix = validatePrefix(extras.prefix);
  const trustedOrigins = [baseUrl.origin, ...(options.trustedOrigins ?? []).map((origin, i) => originOf(`trustedOrigins[${i}]`, origin))];
  const needsJwt = extras.strategy === 'jwt';
  if (needsJwt && !options.jwt) throw new AuthConfigError('jwt', 'is required for the jwt strategy');

  const cookie = options.cookie ?? {};
  const sameSite = cookie.sameSite ?? 'lax';
  if (!['lax', 'strict', 'none'].includes(sameSite)) throw new AuthConfigError('cookie.sameSite', 'must be lax, strict or none');
  const secure = bool('cookie.secure', cookie.secure, true);
  // RFC 6265bis §5.4.7: browsers drop SameSite=None cookies that are not Secure.
  if (sameSite === 'none' && !secure) throw new AuthConfigError('cookie.sameSite', 'none requires cookie.secure true');

  const password = options.password ?? {};
  const rateLimit = options.rateLimit;

  const config: AuthConfig = {
    strategy: extras.strategy,
    baseUrl: baseUrl.href.replace(/\/$/, ''),
    prefix,
    trustedOrigins,
    bodyLimitBytes: int('bodyLimitBytes', options.bodyLimitBytes, 16384, 1024, 1048576),
    hookTimeoutSeconds: int('hookTimeoutSeconds', options.hookTimeoutSeconds, 10, 1, 60),
    userEntity: extras.entities?.user ?? User,
    jwt: options.jwt && {
      secretKey: secret('jwt.secretKey', options.jwt.secretKey),
      algorithm: oneOf('jwt.algorithm', options.jwt.algorithm, 'HS256', ['HS256', 'HS384', 'HS512'] as const),
      accessTokenExpireMinutes: int('jwt.accessTokenExpireMinutes', options.jwt.accessTokenExpireMinutes, 10, 1, 30),
      refreshTokenExpireDays: int('jwt.refreshTokenExpireDays', options.jwt.refreshTokenExpireDays, 7, 1, 30),
      refreshReuseGraceSeconds: int('jwt.refreshReuseGraceSeconds', options.jwt.refreshReuseGraceSeconds, 0, 0, 60),
    },
    session: {
      expireDays: int('session.expireDays', options.session?.expireDays, 7, 1, 30),
      maxPerUser: int('session.maxPerUser', options.session?.maxPerUser, 10, 1, 1000),
      loginOnSignup: bool('session.loginOnSignup', options.session?.loginOnSignup, true),
    },
    cookie: {
      sessionName: cookieName('cookie.sessionName', cookie.sessionName, 'svc_session'),
      refreshName: cookieName('cookie.refreshName', cookie.refreshName, 'svc_refresh'),
      oauthStateName: cookieName('cookie.oauthStateName', cookie.oauthStateName, 'svc_oauth_state'),
      secure,
      sameSite,
      path: cookiePath('cookie.path', cookie.path ?? '/'),
      domain: cookie.domain === undefined ? undefined : cookieDomain('cookie.domain', cookie.domain),
    },
    password: {
      minLength: int('password.minLength', password.minLength, 8, 8, 72),
      maxLength: int('password.maxLength', password.maxLength, 72, 8, 72),
      bcryptCost: int('password.bcryptCost', password.bcryptCost, 12, 10, 15),
      resetTokenTtlMinutes: int('password.resetTokenTtlMinutes', password.resetTokenTtlMinutes, 60, 5, 1440),
    },
    rateLimit: rateLimit && {
      windowSeconds: int('rateLimit.windowSeconds', rateLimit.windowSeconds, 60, 1, 86400),
      max: int('rateLimit.max', rateLimit.max, 10, 1, 1_000_000),
      trustedIpHeader: rateLimit.trustedIpHeader === undefined ? undefined : headerName('rateLimit.trustedIpHeader', rateLimit.trustedIpHeader),
      backend: oneOf('rateLimit.backend', rateLimit.backend, 'memory', ['memory', 'database', 'redis'] as const),
      onBackendError: oneOf('rateLimit.onBackendError', rateLimit.onBackendError, 'deny', ['deny', 'allow'] as const),
      redis: rateLimit.redis,
      memoryMaxKeys: int('rateLimit.memoryMaxKeys', rateLimit.memoryMaxKeys, 100_000, 100, 10_000_000),
    },
  };
  if (config.password.minLength > config.password.maxLength) {
    throw new AuthConfigError('password.minLength', 'must not exceed password.maxLength');
  }
  if (config.rateLimit?.backend === 'redis' && !config.rateLimit.redis) {
    throw new AuthConfigError('rateLimit.redis', 'is required for the redis backend (an ioredis client)');
  }
  return deepFreeze(config);
}

/** The prefix shapes the routes, so it is checked on its own while the module graph is built. */
export function validatePrefix(prefix: unknown = '/auth'): string {
  if (typeof prefix !== 'string' || !/^\/[A-Za-z0-9/_-]*$/.test(prefix) || (prefix.length > 1 && prefix.endsWith('/')) || prefix.includes('//')) {
    throw new AuthConfigError('prefix', 'must start with "/" and hold only letters, digits, "/", "_" and "-"');
  }
  return prefix;
}

function int(field: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new AuthConfigError(field, 'must be an integer');
  if (value < min || value > max) throw new AuthConfigError(field, `must be between ${min} and ${max}`);
  return value;
}

function bool(field: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new AuthConfigError(field, 'must be true or false');
  return value;
}

function oneOf<T extends string>(field: string, value: unknown, fallback: T, allowed: readonly T[]): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) throw new AuthConfigError(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** Secrets that sign credentials: long and not a placeholder (spec: Authentication 6). */
export function secret(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new AuthConfigError(field, 'is required');
  if (value.length < 32) throw new AuthConfigError(field, 'must be at least 32 characters');
  if (isPlaceholderSecret(value)) throw new AuthConfigError(field, 'is a placeholder value; generate a random one (e.g. `openssl rand -base64 48`)');
  return value;
}

function absoluteUrl(field: string, value: unknown): URL {
  if (typeof value !== 'string') throw new AuthConfigError(field, 'is required (an absolute http(s) URL)');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthConfigError(field, 'must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AuthConfigError(field, 'must be an http(s) URL');
  return url;
}

function originOf(field: string, value: unknown): string {
  const url = absoluteUrl(field, value);
  if (url.origin !== value && `${url.origin}/` !== value) throw new AuthConfigError(field, 'must be an origin (scheme://host[:port])');
  return url.origin;
}

function cookieName(field: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  // RFC 6265 §4.1.1: a cookie name is a token.
  if (typeof value !== 'string' || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(value)) throw new AuthConfigError(field, 'must be a cookie token');
  return value;
}

function cookiePath(field: string, value: string): string {
  if (!/^\/[^;\s]*$/.test(value)) throw new AuthConfigError(field, 'must start with "/" and hold no ";" or spaces');
  return value;
}

function cookieDomain(field: string, value: string): string {
  if (!/^\.?[A-Za-z0-9.-]+$/.test(value)) throw new AuthConfigError(field, 'must be a domain name');
  return value;
}

function headerName(field: string, value: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(value)) throw new AuthConfigError(field, 'must be an HTTP header name');
  return value.toLowerCase();
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) {
      if (key !== 'userEntity' && key !== 'redis') deepFreeze((value as Record<string, unknown>)[key]);
    }
    Object.freeze(value);
  }
  return value;
}
