import { deriveKey } from '../crypto/derive-key.js';
import { User } from '../entities/user.entity.js';
import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import { type AuthOptions, type ConfigShapeOptions, DEFAULT_REDIS_KEY_PREFIX, type JwtOptions, type RateLimitOptions, type RedisCommands } from './auth-options.js';
import { type CredentialKind, LOGIN_METHODS, type ModuleShape, moduleShapeOf, OPTIONAL_PARTS, type OptionalPart, optionalPartsOf } from './login-methods.js';
import { absoluteUrl, bool, cookieDomain, cookieName, cookiePath, deepFreeze, headerName, int, isRedisUrl, nonEmptyString, oneOf, originOf, redisKeyPrefix, redisUrl, secret, trustedProxies } from './option-rules.js';
import { pagePath, validateEmailVerification } from './validate-email-verification.js';
import { validateMfa } from './validate-mfa.js';
import { validatePasskeys } from './validate-passkeys.js';
import { validateAdmin } from './validate-admin.js';
import { validateApiKeys } from './validate-api-keys.js';
import { validateMail } from './validate-mail.js';
import { validateReauth } from './validate-reauth.js';
import { validateAudit } from './validate-audit.js';
import { type OAuthSecrets, validateOAuth2Section, validateOidcSection } from './validate-oauth-options.js';
import { validatePrincipalCache } from './validate-principal-cache.js';
import { validateAuthorization } from './validate-authorization.js';
import { nativeClientsOf } from './validate-native-clients.js';
import { validateJwtSigning } from './validate-jwt-signing.js';
import { validateOrganizations } from './validate-organizations.js';

const HOUR_SECONDS = 3600;
const DAY_SECONDS = 86_400;
const YEAR_SECONDS = 365 * DAY_SECONDS;
/** The absolute lifetime of a session or a refresh family unless the options say otherwise: 30 days. */
const ABSOLUTE_TTL_DEFAULT = 30 * DAY_SECONDS;

/**
 * Checks every option on its own, fills in the defaults and freezes the result.
 * Pure: the same input gives the same config or the same error.
 */
export function validateAuthOptions(options: AuthOptions, extras: ConfigShapeOptions): AuthConfig {
  const shape = moduleShapeOf(extras);
  const nativeClients = nativeClientsOf(extras);
  assertEverySectionTakesEffect(options, shape, optionalPartsOf(extras), nativeClients);
  const baseUrl = absoluteUrl('baseUrl', options.baseUrl);
  const prefix = validatePrefix(extras.prefix);
  const trustedOrigins = [baseUrl.origin, ...(options.trustedOrigins ?? []).map((origin, i) => originOf(`trustedOrigins[${i}]`, origin))];
  const moduleSecret = options.secret === undefined ? undefined : secret('secret', options.secret);
  const callbacks = { baseUrl: baseUrl.href.replace(/\/$/, ''), prefix };
  const oauthSecrets: OAuthSecrets = { moduleSecret, shorthand: shape.strategy !== undefined };
  const oauth2 = shape.loginMethods.includes('oauth2') ? validateOAuth2Section(options.oauth2, callbacks, oauthSecrets) : undefined;
  const oidc = shape.loginMethods.includes('oidc') ? validateOidcSection(options.oidc, callbacks, oauthSecrets) : undefined;
  assertProviderNamesUnique(oauth2?.providers ?? [], oidc?.providers ?? []);
  if (shape.strategy !== undefined) assertShorthandCredential(options, shape);

  const cookie = options.cookie ?? {};
  const sameSite = cookie.sameSite ?? 'lax';
  if (!['lax', 'strict', 'none'].includes(sameSite)) throw new AuthConfigError('cookie.sameSite', 'must be lax, strict or none', sameSite);
  const secure = bool('cookie.secure', cookie.secure, true);
  // RFC 6265bis §5.4.7: browsers drop SameSite=None cookies that are not Secure.
  if (sameSite === 'none' && !secure) throw new AuthConfigError('cookie.sameSite', 'none requires cookie.secure true');

  const password = options.password ?? {};
  // Native clients hold the jwt credential whatever the browser's (docs/guides/machine-access.md).
  const jwt = shape.credential === 'jwt' || nativeClients ? jwtSettings(options.jwt, moduleSecret ?? (oauth2 ?? oidc)?.secretKey, shape, callbacks.baseUrl) : undefined;
  // What the derived keys (the limiter's account key, two-step login's, the passkey challenges') come
  // from: the module secret, else a section's own secret, so the seed's shorthands need no second one.
  const keySource = moduleSecret ?? jwt?.secretKey ?? oauth2?.secretKey ?? oidc?.secretKey;

  const config: AuthConfig = {
    credential: shape.credential,
    loginMethods: shape.loginMethods,
    baseUrl: callbacks.baseUrl,
    prefix,
    trustedOrigins,
    bodyLimitBytes: int('bodyLimitBytes', options.bodyLimitBytes, 16384, 1024, 1048576),
    hookTimeoutSeconds: int('hookTimeoutSeconds', options.hookTimeoutSeconds, 10, 1, 60),
    clientAddress: clientAddressSettings(options),
    purge: options.purge === undefined ? undefined : { cron: nonEmptyString('purge.cron', options.purge?.cron, 128) },
    userEntity: extras.entities?.user ?? User,
    globalGuard: extras.globalGuard === true,
    nativeClients,
    jwt,
    oauth2,
    oidc,
    session: {
      expireDays: int('session.expireDays', options.session?.expireDays, 7, 1, 30),
      maxPerUser: int('session.maxPerUser', options.session?.maxPerUser, 10, 1, 1000),
      loginOnSignup: bool('session.loginOnSignup', options.session?.loginOnSignup, true),
      // OWASP Session Management Cheat Sheet, "Absolute Timeout"; ASVS 5.0 V7.3.
      absoluteTtlSeconds: int('session.absoluteTtlSeconds', options.session?.absoluteTtlSeconds, ABSOLUTE_TTL_DEFAULT, HOUR_SECONDS, YEAR_SECONDS),
    },
    cookie: {
      sessionName: cookieName('cookie.sessionName', cookie.sessionName, 'svc_session'),
      refreshName: cookieName('cookie.refreshName', cookie.refreshName, 'svc_refresh'),
      oauthStateName: cookieName('cookie.oauthStateName', cookie.oauthStateName, 'svc_oauth_state'),
      mfaChallengeName: cookieName('cookie.mfaChallengeName', cookie.mfaChallengeName, 'svc_mfa'),
      passkeyChallengeName: cookieName('cookie.passkeyChallengeName', cookie.passkeyChallengeName, 'svc_passkey'),
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
      resetPath: pagePath('password.resetPath', password.resetPath, '/reset-password'),
      sendsResetMail: bool('password.sendsResetMail', password.sendsResetMail, true),
    },
    emailVerification: validateEmailVerification(options.emailVerification, shape.loginMethods),
    mfa: validateMfa(options.mfa, shape.loginMethods, keySource),
    passkeys: validatePasskeys(options.passkeys, baseUrl, keySource),
    principalCache: validatePrincipalCache(options.principalCache),
    authorization: validateAuthorization(options.authorization),
    admin: validateAdmin(options.admin, options.authorization !== undefined, keySource),
    apiKeys: validateApiKeys(options.apiKeys),
    mail: validateMail(options.mail, callbacks.baseUrl),
    reauth: validateReauth(options.reauth),
    audit: validateAudit(options.audit),
    organizations: validateOrganizations(options.organizations),
    rateLimit: options.rateLimit && rateLimitSettings(options.rateLimit, keySource),
  };
  if (config.password.minLength > config.password.maxLength) {
    throw new AuthConfigError('password.minLength', 'must not exceed password.maxLength');
  }
  if (config.rateLimit?.backend === 'redis' && !isRedisClient(config.rateLimit.redis) && !isRedisUrl(config.rateLimit.redis)) {
    throw new AuthConfigError('rateLimit.redis', 'is required for the redis backend (an ioredis Redis or Cluster client) or { url } (a client svc opens and closes)');
  }
  return deepFreeze(config);
}

/**
 * docs/reference/options.md: a section that would not take effect stops startup, naming it, so
 * that nothing configured is silently ignored (an `oidc` section without the oidc login method, a
 * `jwt` section under the session credential).
 */
function assertEverySectionTakesEffect(options: AuthOptions, shape: ModuleShape, features: readonly OptionalPart[], nativeClients: boolean): void {
  for (const method of LOGIN_METHODS) {
    if (options[method] === undefined || shape.loginMethods.includes(method)) continue;
    throw new AuthConfigError(
      method,
      shape.strategy === undefined
        ? `is given but the ${method} login method is not on: add '${method}' to the login extra, or leave the section out`
        : `is given but strategy '${shape.strategy}' has no ${method} login: leave the section out`,
    );
  }
  // The optional parts are mounted or not while the module graph is built (docs/decisions/0001-module-shape.md).
  for (const part of OPTIONAL_PARTS) {
    const given = options[part] !== undefined;
    if (given && !features.includes(part)) {
      throw new AuthConfigError(part, `is given but the module was built without it: with forRootAsync, add '${part}' to the features extra, or leave the section out`);
    }
    if (!given && features.includes(part)) throw new AuthConfigError(part, `is required: the features extra lists '${part}'`);
  }
  const other: Record<CredentialKind, CredentialKind> = { session: 'jwt', jwt: 'session' };
  const unused = other[shape.credential];
  // With native clients a session module issues jwt credentials too, so its jwt section takes effect.
  if (unused === 'jwt' && nativeClients) return;
  if (options[unused] !== undefined) throw new AuthConfigError(unused, `is given but the credential is ${shape.credential}: it would not take effect`);
}

/** Provider names are path segments and the state cookie binds one: unique across both OAuth methods. */
function assertProviderNamesUnique(oauth2: readonly { name: string }[], oidc: readonly { name: string }[]): void {
  const oauth2Names = new Set(oauth2.map((provider) => provider.name));
  for (const [i, { name }] of oidc.entries()) {
    if (oauth2Names.has(name)) throw new AuthConfigError(`oidc.providers[${i}].name`, `"${name}" is also an oauth2 provider's name: names are unique across oauth2 and oidc`);
  }
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
 * The jwt credential's settings. Its signing key is `jwt.secretKey`, or a key derived from the
 * module's `secret` (in the OAuth shorthand, from the section's secret), never that secret itself.
 */
function jwtSettings(jwt: JwtOptions | undefined, derivableFrom: string | undefined, shape: ModuleShape, baseUrl: string): AuthConfig['jwt'] {
  if (jwt === undefined && shape.strategy === 'jwt') throw new AuthConfigError('jwt', 'is required for the jwt strategy');
  const given = jwt?.secretKey;
  if (given === undefined && derivableFrom === undefined) {
    throw new AuthConfigError('jwt.secretKey', shape.strategy === 'jwt' ? 'is required' : 'is required (or give the module a secret to derive it from)');
  }
  const refreshTokenExpireDays = int('jwt.refreshTokenExpireDays', jwt?.refreshTokenExpireDays, 7, 1, 30);
  // OWASP Session Management Cheat Sheet, "Absolute Timeout"; ASVS 5.0 V7.3: rotation alone would let a family live for ever.
  const refreshFamilyTtlSeconds = int('jwt.refreshFamilyTtlSeconds', jwt?.refreshFamilyTtlSeconds, ABSOLUTE_TTL_DEFAULT, HOUR_SECONDS, YEAR_SECONDS);
  if (refreshFamilyTtlSeconds < refreshTokenExpireDays * DAY_SECONDS) {
    throw new AuthConfigError(
      'jwt.refreshFamilyTtlSeconds',
      `must be at least the refresh token lifetime, jwt.refreshTokenExpireDays (${refreshTokenExpireDays * DAY_SECONDS} seconds)`,
      refreshFamilyTtlSeconds,
    );
  }
  return {
    secretKey: given === undefined ? deriveKey(derivableFrom!, 'jwt access tokens') : secret('jwt.secretKey', given),
    algorithm: oneOf('jwt.algorithm', jwt?.algorithm, 'HS256', ['HS256', 'HS384', 'HS512'] as const),
    accessTokenExpireMinutes: int('jwt.accessTokenExpireMinutes', jwt?.accessTokenExpireMinutes, 10, 1, 30),
    refreshTokenExpireDays,
    refreshReuseGraceSeconds: int('jwt.refreshReuseGraceSeconds', jwt?.refreshReuseGraceSeconds, 0, 0, 60),
    refreshFamilyTtlSeconds,
    signing: validateJwtSigning(jwt, baseUrl),
  };
}

/**
 * In the OAuth shorthand the credential is named by the section's `strategy` (a value, perhaps
 * from a factory) and by what shaped the routes (the `credential` extra of `forRootAsync`, default
 * 'session'). They must agree, or the routes and the credential would disagree.
 */
function assertShorthandCredential(options: AuthOptions, shape: ModuleShape): void {
  const strategy = shape.strategy!;
  if (strategy !== 'oauth2' && strategy !== 'oidc') return;
  const field = `${strategy}.strategy`;
  const named = oneOf(field, options[strategy]?.strategy, shape.credential, ['session', 'jwt'] as const);
  if (named !== shape.credential) {
    throw new AuthConfigError(field, `must match the credential AuthModule's routes were built for (${shape.credential}): with forRootAsync, give it as the credential extra`, named);
  }
}

/**
 * The limiter's settings. Per-account counters are keyed by an HMAC of the email, never the email
 * (docs/decisions/0016-rate-limiting-windows-and-backends.md); its key is derived from the module's secret, or
 * else from a section's. The memory backend may do without one (a random key per process); the
 * database and redis backends may not: every instance must key an account alike.
 */
function rateLimitSettings(rateLimit: RateLimitOptions, secretToDeriveFrom: string | undefined): NonNullable<AuthConfig['rateLimit']> {
  const windowSeconds = int('rateLimit.windowSeconds', rateLimit.windowSeconds, 60, 1, 86400);
  const max = int('rateLimit.max', rateLimit.max, 10, 1, 1_000_000);
  // OWASP Authentication Cheat Sheet, "Account Lockout": far above one client's limit, so it slows a distributed guess only.
  const accountCeiling = int('rateLimit.accountCeiling', rateLimit.accountCeiling, 10 * max, 1, 10_000_000);
  if (accountCeiling < max) throw new AuthConfigError('rateLimit.accountCeiling', `must be at least rateLimit.max (${max})`, accountCeiling);
  const backend = oneOf('rateLimit.backend', rateLimit.backend, 'memory', ['memory', 'database', 'redis'] as const);
  if (backend !== 'memory' && secretToDeriveFrom === undefined) {
    throw new AuthConfigError(
      'secret',
      `is required with rateLimit.backend '${backend}': per-account counters are keyed by an HMAC of the email, and every instance must derive that key from one shared secret (or give jwt.secretKey or an OAuth secretKey)`,
    );
  }
  return {
    windowSeconds,
    max,
    accountCeiling,
    accountKey: secretToDeriveFrom === undefined ? undefined : deriveKey(secretToDeriveFrom, 'rate-limit account keys'),
    backend,
    onBackendError: oneOf('rateLimit.onBackendError', rateLimit.onBackendError, 'deny', ['deny', 'allow'] as const),
    redis: isRedisUrl(rateLimit.redis) ? redisUrl('rateLimit.redis', rateLimit.redis) : rateLimit.redis,
    // Checked whatever the backend, as memoryMaxKeys is; the default keeps existing deployments' counters.
    redisKeyPrefix: redisKeyPrefix('rateLimit.redisKeyPrefix', rateLimit.redisKeyPrefix, DEFAULT_REDIS_KEY_PREFIX, 64),
    memoryMaxKeys: int('rateLimit.memoryMaxKeys', rateLimit.memoryMaxKeys, 100_000, 100, 10_000_000),
  };
}

/** The prefix shapes the routes, so it is checked on its own while the module graph is built. */
export function validatePrefix(prefix: unknown = '/auth'): string {
  if (typeof prefix !== 'string' || !/^\/[A-Za-z0-9/_-]*$/.test(prefix) || (prefix.length > 1 && prefix.endsWith('/')) || prefix.includes('//')) {
    throw new AuthConfigError('prefix', 'must start with "/" and hold only letters, digits, "/", "_" and "-"', prefix);
  }
  return prefix;
}

function isRedisClient(value: unknown): boolean {
  const client = value as Partial<Record<keyof RedisCommands, unknown>> | null | undefined;
  return typeof client?.evalsha === 'function' && typeof client.eval === 'function' && typeof client.ping === 'function';
}
