import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { AuthStrategy, CredentialKind, LoginMethod, OAuth2ProviderOptions, OidcProviderOptions } from '#svc/auth';
import { DemoConfigError } from './demo-config.error.js';
import { type DemoJwtSigning, readJwtSigning } from './demo-jwt-signing.js';
import { readLoginSet } from './demo-login-set.js';
import { readOAuth2Providers, readOidcProviders } from './oauth/demo-oauth-providers.js';

/**
 * The demo's settings but DEMO_ADMIN_EMAILS, read from the environment (docs/demo.md) by this module,
 * which loads nothing of svc or Nest at run time: main.ts refuses a bad value before loading the
 * application. DEMO_ADMIN_EMAILS is normalised by svc's own `normalizeEmail` (demo-config.ts).
 */
export interface DemoSettings {
  port: number;
  /** The address to listen on: loopback unless HOST says otherwise. */
  host: string;
  /** How long a client may take to send headers, and a whole request. */
  requestTimeouts: { headersSeconds: number; requestSeconds: number };
  /** How people sign in: AUTH_LOGIN, or AUTH_STRATEGY's set of one. */
  login: readonly LoginMethod[];
  /** What a signed-in client holds: AUTH_CREDENTIAL, or what AUTH_STRATEGY / AUTH_OAUTH_CREDENTIAL say. */
  credential: CredentialKind;
  /** Set only when AUTH_LOGIN is not: the module is then built in the seed's single-strategy shape. */
  strategy?: AuthStrategy;
  /** Variables that were set but are not read (AUTH_STRATEGY and AUTH_OAUTH_CREDENTIAL beside AUTH_LOGIN). */
  unread: string[];
  baseUrl: string;
  database: { type: 'postgres'; url: string } | { type: 'better-sqlite3'; database: string };
  secret: string;
  secretGenerated: boolean;
  cookieSecure: boolean;
  rateLimit: { backend: 'memory' | 'database' | 'redis'; max: number; windowSeconds: number; redisUrl: string; trustedIpHeader?: string } | undefined;
  /** AUTH_PRINCIPAL_CACHE: the library's principal cache and how it is invalidated; unset when `off`. */
  principalCache: { invalidation: 'postgres' | 'redis' | 'local'; redisUrl: string } | undefined;
  oauth2Providers: OAuth2ProviderOptions[];
  oidcProviders: OidcProviderOptions[];
  /** AUTH_EMAIL_VERIFICATION: `optional` mails the links and lets unverified users in, `required` refuses their login, `off` has neither. */
  emailVerification: EmailVerificationMode;
  /** Passkeys beside a password, where AUTH_BASE_URL lets them work (a host name; https, or http on localhost). */
  passkeys: boolean;
  /** AUTH_NATIVE_CLIENTS=on: native clients get tokens in the body beside the browser credential (docs/guides/machine-access.md). */
  nativeClients: boolean;
  /** AUTH_API_KEYS: `on` gives the library's `apiKeys` section (the page lists the user's keys); `off` by default. */
  apiKeys: boolean;
  /** AUTH_JWT_ALG and AUTH_JWT_KEYS: asymmetric access tokens and /auth/jwks; unset: HMAC over the secret. */
  jwtSigning: DemoJwtSigning | undefined;
  /** AUTH_REAUTH_MAX_AGE_SECONDS: how recent a sign-in the routes that change the ways in need (`reauth.maxAgeSeconds`). */
  reauthMaxAgeSeconds: number;
  /** AUTH_BCRYPT_COST: the work factor of new password hashes (`password.bcryptCost`), 12 unless set; hashes made at a lower cost are upgraded at their next login. */
  bcryptCost: number;
  /** AUTH_AUDIT: the activity log (`on`, the default) or none (`off`). */
  audit: boolean;
  /** AUTH_ORGANIZATIONS=on: organizations, their members and invitations (docs/demo.md). */
  organizations: boolean;
}

export type EmailVerificationMode = 'required' | 'optional' | 'off';

export function readDemoSettings(env: NodeJS.ProcessEnv): DemoSettings {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  if (isIP(host) === 0 && host !== 'localhost') throw new DemoConfigError('HOST', 'must be an IP address to listen on (0.0.0.0 for every interface), or localhost');
  const backend = oneOf(env, 'RATE_LIMIT_BACKEND', 'memory', ['memory', 'database', 'redis', 'off'] as const);
  const oauth2Providers = readOAuth2Providers(env.OAUTH2_PROVIDERS);
  const oidcProviders = readOidcProviders(env.OIDC_PROVIDERS);
  const requestSeconds = integer(env, 'REQUEST_TIMEOUT_SECONDS', 10, 1, 300);
  const shape = loginShape(env, { oauth2: oauth2Providers.length, oidc: oidcProviders.length });
  const baseUrl = (env.AUTH_BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    host,
    requestTimeouts: { headersSeconds: Math.min(requestSeconds, 10), requestSeconds },
    ...shape,
    baseUrl,
    database: database(env.DATABASE_URL ?? 'sqlite:./data/demo.sqlite'),
    secret: env.AUTH_SECRET ?? randomBytes(48).toString('base64url'),
    secretGenerated: env.AUTH_SECRET === undefined,
    cookieSecure: oneOf(env, 'COOKIE_SECURE', 'true', ['true', 'false'] as const) === 'true',
    rateLimit:
      backend === 'off'
        ? undefined
        : {
            backend,
            max: integer(env, 'RATE_LIMIT_MAX', 10, 1, 1_000_000),
            windowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
            redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
            trustedIpHeader: env.TRUSTED_IP_HEADER || undefined,
          },
    principalCache: principalCache(env),
    oauth2Providers,
    oidcProviders,
    emailVerification: emailVerificationMode(env, shape.login.includes('password')),
    passkeys: shape.login.includes('password') && passkeysUnworkableAt(baseUrl) === undefined,
    nativeClients: oneOf(env, 'AUTH_NATIVE_CLIENTS', 'off', ['on', 'off'] as const) === 'on',
    apiKeys: oneOf(env, 'AUTH_API_KEYS', 'off', ['on', 'off'] as const) === 'on',
    jwtSigning: readJwtSigning(env, shape.credential),
    reauthMaxAgeSeconds: integer(env, 'AUTH_REAUTH_MAX_AGE_SECONDS', 900, 1, 86_400),
    bcryptCost: integer(env, 'AUTH_BCRYPT_COST', 12, 10, 15),
    audit: oneOf(env, 'AUTH_AUDIT', 'on', ['on', 'off'] as const) === 'on',
    organizations: oneOf(env, 'AUTH_ORGANIZATIONS', 'off', ['on', 'off'] as const) === 'on',
  };
}

/**
 * Why passkeys cannot work at AUTH_BASE_URL, or undefined when they can. The library refuses both
 * at startup, so the demo leaves passkeys off instead (with a warning): its relying party id is the
 * host, which must be a domain name (WebAuthn L2 §5.1.3 step 7: an IP address is no valid domain), and
 * browsers offer WebAuthn to secure contexts only (https, or http on localhost).
 */
export function passkeysUnworkableAt(baseUrl: string): string | undefined {
  if (!URL.canParse(baseUrl)) return `AUTH_BASE_URL (${baseUrl}) is not a URL`;
  const { protocol, hostname } = new URL(baseUrl);
  if (isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0) return `AUTH_BASE_URL (${baseUrl}) is on an IP address, and WebAuthn needs a host name`;
  const localhost = hostname === 'localhost' || hostname.endsWith('.localhost');
  if (protocol !== 'https:' && !localhost) return `AUTH_BASE_URL (${baseUrl}) is plain http away from localhost, and browsers offer WebAuthn to secure contexts only`;
  return undefined;
}

/** AUTH_PRINCIPAL_CACHE: `off` (the default), or the cache with `postgres`, `redis` (at REDIS_URL) or `local` invalidation. */
function principalCache(env: NodeJS.ProcessEnv): DemoSettings['principalCache'] {
  const invalidation = oneOf(env, 'AUTH_PRINCIPAL_CACHE', 'off', ['off', 'postgres', 'redis', 'local'] as const);
  return invalidation === 'off' ? undefined : { invalidation, redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379' };
}

/** AUTH_EMAIL_VERIFICATION: `optional` by default where people sign up with a password, `off` where nobody does. */
function emailVerificationMode(env: NodeJS.ProcessEnv, password: boolean): EmailVerificationMode {
  const mode = oneOf(env, 'AUTH_EMAIL_VERIFICATION', password ? 'optional' : 'off', ['required', 'optional', 'off'] as const);
  if (mode !== 'off' && !password) throw new DemoConfigError('AUTH_EMAIL_VERIFICATION', `is ${mode}, but nobody signs in with a password here: verification needs the password method (or set it to off)`);
  return mode;
}

type LoginShape = Pick<DemoSettings, 'login' | 'credential' | 'strategy' | 'unread'>;

/**
 * AUTH_LOGIN and AUTH_CREDENTIAL when AUTH_LOGIN is set (AUTH_STRATEGY and AUTH_OAUTH_CREDENTIAL
 * are then not read); otherwise the seed's AUTH_STRATEGY, with AUTH_OAUTH_CREDENTIAL for its OAuth strategies.
 */
function loginShape(env: NodeJS.ProcessEnv, providerCounts: Record<'oauth2' | 'oidc', number>): LoginShape {
  if (env.AUTH_LOGIN !== undefined && env.AUTH_LOGIN !== '') {
    const login = readLoginSet(env.AUTH_LOGIN, providerCounts);
    const credential = oneOf(env, 'AUTH_CREDENTIAL', 'session', ['session', 'jwt'] as const);
    return { login, credential, unread: ['AUTH_STRATEGY', 'AUTH_OAUTH_CREDENTIAL'].filter((name) => env[name] !== undefined && env[name] !== '') };
  }
  if (env.AUTH_CREDENTIAL !== undefined && env.AUTH_CREDENTIAL !== '') {
    throw new DemoConfigError('AUTH_CREDENTIAL', 'is read only with AUTH_LOGIN (e.g. AUTH_LOGIN=password); without it, AUTH_STRATEGY chooses');
  }
  const strategy = oneOf(env, 'AUTH_STRATEGY', 'session', ['session', 'jwt', 'oidc', 'oauth2'] as const);
  const oauthCredential = oneOf(env, 'AUTH_OAUTH_CREDENTIAL', 'session', ['session', 'jwt'] as const);
  if (strategy === 'session' || strategy === 'jwt') return { login: ['password'], credential: strategy, strategy, unread: [] };
  return { login: [strategy], credential: oauthCredential, strategy, unread: [] };
}

function database(url: string): DemoSettings['database'] {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { type: 'postgres', url };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file.length === 0) throw new DemoConfigError('DATABASE_URL', 'needs a file after sqlite: (or sqlite::memory:)');
    return { type: 'better-sqlite3', database: file };
  }
  throw new DemoConfigError('DATABASE_URL', 'must be postgres://..., sqlite:<file> or sqlite::memory:');
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new DemoConfigError(name, `must be an integer between ${min} and ${max}`);
  return value;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!allowed.includes(raw as T)) throw new DemoConfigError(name, `must be one of ${allowed.join(', ')}`);
  return raw as T;
}
