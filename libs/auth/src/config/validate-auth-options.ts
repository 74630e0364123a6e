import { deriveKey } from '../crypto/derive-key.js';
import { User } from '../entities/user.entity.js';
import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { AuthModuleExtras, AuthOptions, JwtOptions } from './auth-options.js';
import { absoluteUrl, bool, cookieDomain, cookieName, cookiePath, deepFreeze, headerName, int, nonEmptyString, oneOf, originOf, redisKeyPrefix, secret, trustedProxies } from './option-rules.js';
import { builtCredentialOf, CREDENTIAL_KINDS, type CredentialKind, STRATEGIES } from './strategy.js';
import { validateOAuth2Section, validateOidcSection } from './validate-oauth-options.js';
import { DEFAULT_REDIS_KEY_PREFIX, type RedisCommands } from '../rate-limit/redis/redis-rate-limit.storage.js';

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
  const credential = credentialOfOptions(options, extras);
  if (extras.strategy === 'jwt' && !options.jwt) throw new AuthConfigError('jwt', 'is required for the jwt strategy');
  const callbacks = { baseUrl: baseUrl.href.replace(/\/$/, ''), prefix };
  const oauth2 = extras.strategy === 'oauth2' ? validateOAuth2Section(options.oauth2, callbacks) : undefined;
  const oidc = extras.strategy === 'oidc' ? validateOidcSection(options.oidc, callbacks) : undefined;
  const oauthSecret = (oauth2 ?? oidc)?.secretKey;

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
    credential,
    baseUrl: callbacks.baseUrl,
    prefix,
    trustedOrigins,
    bodyLimitBytes: int('bodyLimitBytes', options.bodyLimitBytes, 16384, 1024, 1048576),
    hookTimeoutSeconds: int('hookTimeoutSeconds', options.hookTimeoutSeconds, 10, 1, 60),
    clientAddress: clientAddressSettings(options),
    purge: options.purge === undefined ? undefined : { cron: nonEmptyString('purge.cron', options.purge?.cron, 128) },
    userEntity: extras.entities?.user ?? User,
    jwt: jwtSettings(options.jwt, credential, oauthSecret),
    oauth2,
    oidc,
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
      backend: oneOf('rateLimit.backend', rateLimit.backend, 'memory', ['memory', 'database', 'redis'] as const),
      onBackendError: oneOf('rateLimit.onBackendError', rateLimit.onBackendError, 'deny', ['deny', 'allow'] as const),
      redis: rateLimit.redis,
      // Checked whatever the backend, as memoryMaxKeys is; the default keeps existing deployments' counters.
      redisKeyPrefix: redisKeyPrefix('rateLimit.redisKeyPrefix', rateLimit.redisKeyPrefix, DEFAULT_REDIS_KEY_PREFIX, 64),
      memoryMaxKeys: int('rateLimit.memoryMaxKeys', rateLimit.memoryMaxKeys, 100_000, 100, 10_000_000),
    },
  };
  if (config.password.minLength > config.password.maxLength) {
    throw new AuthConfigError('password.minLength', 'must not exceed password.maxLength');
  }
  if (config.rateLimit?.backend === 'redis' && !isRedisClient(config.rateLimit.redis)) {
    throw new AuthConfigError('rateLimit.redis', 'is required for the redis backend (an ioredis Redis or Cluster client)');
  }
  return deepFreeze(config);
}

/** `trustProxy` and `clientIpHeader`, or their shorthand `rateLimit.trustedIpHeader` (one trusted hop). */
function clientAddressSettings(options: AuthOptions): AuthConfig['clientAddress'] {
  const shorthand = options.rateLimit?.trustedIpHeader;
  if (shorthand !== undefined) {
    if (options.trustProxy !== undefined || options.clientIpHeader !== undefined) {
      throw new AuthConfigError('rateLimit.trustedIpHeader', 'is a shorthand for trustProxy: 1 and clientIpHeader; give one or the other');
    }
    return { trustProxy: 1, header: headerName('rateLimit.trustedIpHeader', shorthand) };
  }
  if (options.trustProxy === undefined) {
    if (options.clientIpHeader !== undefined) throw new AuthConfigError('clientIpHeader', 'needs trustProxy (which proxies may write it)');
    return undefined;
  }
  const header = options.clientIpHeader === undefined ? 'x-forwarded-for' : headerName('clientIpHeader', options.clientIpHeader);
  if (typeof options.trustProxy === 'number') return { trustProxy: int('trustProxy', options.trustProxy, 1, 1, 16), header };
  return { trustProxy: trustedProxies(options.trustProxy), header };
}

/**
 * The jwt section when one is given. An OAuth strategy issuing jwt credentials without one gets the
 * defaults, signed with a key derived from its own secret (never the state cookie's key itself).
 */
function jwtSettings(jwt: JwtOptions | undefined, credential: CredentialKind, oauthSecret: string | undefined): AuthConfig['jwt'] {
  const options = jwt ?? (credential === 'jwt' && oauthSecret ? { secretKey: deriveKey(oauthSecret, 'jwt access tokens') } : undefined);
  return options && {
    secretKey: secret('jwt.secretKey', options.secretKey),
    algorithm: oneOf('jwt.algorithm', options.algorithm, 'HS256', ['HS256', 'HS384', 'HS512'] as const),
    accessTokenExpireMinutes: int('jwt.accessTokenExpireMinutes', options.accessTokenExpireMinutes, 10, 1, 30),
    refreshTokenExpireDays: int('jwt.refreshTokenExpireDays', options.refreshTokenExpireDays, 7, 1, 30),
    refreshReuseGraceSeconds: int('jwt.refreshReuseGraceSeconds', options.refreshReuseGraceSeconds, 0, 0, 60),
  };
}

/**
 * The OAuth strategies' credential is named twice: by the section's `strategy` (a value, perhaps
 * from a factory) and by what shaped the routes (the `credential` extra of `forRootAsync`, default
 * 'session'). They must agree, or the routes and the credential would disagree.
 */
function credentialOfOptions(options: AuthOptions, extras: AuthModuleExtras): CredentialKind {
  const built = builtCredentialOf(extras);
  if (extras.strategy !== 'oauth2' && extras.strategy !== 'oidc') return built;
  const field = `${extras.strategy}.strategy`;
  const named = oneOf(field, options[extras.strategy]?.strategy, built, CREDENTIAL_KINDS);
  if (named !== built) throw new AuthConfigError(field, `must match the credential AuthModule's routes were built for (${built}): with forRootAsync, give it as the credential extra`);
  return named;
}

/** The prefix shapes the routes, so it is checked on its own while the module graph is built. */
export function validatePrefix(prefix: unknown = '/auth'): string {
  if (typeof prefix !== 'string' || !/^\/[A-Za-z0-9/_-]*$/.test(prefix) || (prefix.length > 1 && prefix.endsWith('/')) || prefix.includes('//')) {
    throw new AuthConfigError('prefix', 'must start with "/" and hold only letters, digits, "/", "_" and "-"');
  }
  return prefix;
}

function isRedisClient(value: unknown): boolean {
  const client = value as Partial<Record<keyof RedisCommands, unknown>> | null | undefined;
  return typeof client?.evalsha === 'function' && typeof client.eval === 'function' && typeof client.ping === 'function';
}
