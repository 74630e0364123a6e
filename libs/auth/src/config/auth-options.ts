import type { Type } from '@nestjs/common';
import type { SvcUser } from '../entities/user.entity.js';
import type { ModuleShapeOptions } from './login-methods.js';
import type { OAuth2ProviderOptions, OAuthSectionOptions, OidcProviderOptions } from './oauth-options.js';
import type { MailOptions } from './mail-options.js';

export interface JwtOptions {
  /** HMAC signing secret: 32+ characters, random (placeholders are refused). @default derived from `secret` */
  secretKey?: string;
  /** @default 'HS256' (HS384 and HS512 allowed) */
  algorithm?: 'HS256' | 'HS384' | 'HS512';
  /** @default 10 (1..30) */
  accessTokenExpireMinutes?: number;
  /** @default 7 (1..30) */
  refreshTokenExpireDays?: number;
  /** Seconds a consumed refresh token may be presented once more without revoking its family. @default 0 (0..60) */
  refreshReuseGraceSeconds?: number;
  /**
   * Absolute lifetime of a refresh family (one login): past it the family's refresh and access tokens
   * are refused, however recently they were used (docs/guides/devices.md). @default 2592000, 30 days
   * (3600..31536000, and at least `refreshTokenExpireDays`)
   */
  refreshFamilyTtlSeconds?: number;
  /**
   * How access tokens are signed, for other services to verify them with the public keys of
   * `<prefix>/jwks` (docs/guides/machine-access.md). With it, access tokens carry `iss`, `aud` and,
   * with `authorization`, `roles` and `permissions`. @default unset: HMAC over `jwt.secretKey` (`jwt.algorithm`)
   */
  signing?: JwtSigningOptions;
  /** The `iss` of access tokens (with `signing`). @default `baseUrl` */
  issuer?: string;
  /** The `aud` of access tokens (with `signing`). @default `baseUrl` */
  audience?: string;
}

/** One signing key: the first of the list signs, the others only verify (rotation, docs/decisions/0031-signing-keys.md). */
export interface JwtSigningKeyOptions {
  /** The key id, the tokens' `kid` header and the JWK's `kid`: 1..64 characters of `A-Za-z0-9._-`, unique in the list. */
  kid: string;
  /** A PKCS #8 PEM private key (`-----BEGIN PRIVATE KEY-----`) of the algorithm's type: Ed25519, P-256, or RSA of 2048 bits or more. */
  privateKey: string;
}

export interface JwtSigningOptions {
  /** `HS256` signs with `jwt.secretKey` as before and takes no keys; the others need `keys`. */
  algorithm: 'EdDSA' | 'ES256' | 'RS256' | 'HS256';
  /** With an asymmetric algorithm: 1..10 keys, the signing key first. */
  keys?: readonly JwtSigningKeyOptions[];
}

export interface SessionOptions {
  /** @default 7 (1..30) */
  expireDays?: number;
  /** Oldest sessions beyond this count are evicted at login. @default 10 (1..1000) */
  maxPerUser?: number;
  /** Signup also logs the new user in. @default true */
  loginOnSignup?: boolean;
  /**
   * Absolute lifetime of a session, from its login: past it the session is refused, however recently
   * it was used (docs/guides/devices.md). @default 2592000, 30 days (3600..31536000)
   */
  absoluteTtlSeconds?: number;
}

export interface CookieOptions {
  /** @default 'svc_session' */
  sessionName?: string;
  /** @default 'svc_refresh' */
  refreshName?: string;
  /** @default 'svc_oauth_state' */
  oauthStateName?: string;
  /** The two-step login's challenge cookie (docs/guides/two-step.md). @default 'svc_mfa' */
  mfaChallengeName?: string;
  /** The cookie that binds a passkey ceremony to its challenge. @default 'svc_passkey' */
  passkeyChallengeName?: string;
  /** @default true */
  secure?: boolean;
  /** @default 'lax' */
  sameSite?: 'lax' | 'strict' | 'none';
  /** Path of the session cookie (the refresh and state cookies use the prefix). @default '/' */
  path?: string;
  /** @default unset (host-only cookies) */
  domain?: string;
}

export interface PasswordOptions {
  /** Minimum length in characters (code points, after NFKC). @default 8 (>= 8) */
  minLength?: number;
  /** Maximum length in UTF-8 bytes (bcrypt reads no more). @default 72 (<= 72) */
  maxLength?: number;
  /** @default 12 (10..15) */
  bcryptCost?: number;
  /** @default 60 (5..1440) */
  resetTokenTtlMinutes?: number;
  /** The application's page a reset link opens (`<baseUrl><resetPath>?token=`); it POSTs the token with the new password. @default '/reset-password' */
  resetPath?: string;
  /**
   * The application mails the reset link: an observer of `svc.password.reset_requested` must exist,
   * or startup fails (nothing silently dropped). `false`: it sends no such mail. @default true
   */
  sendsResetMail?: boolean;
}

/**
 * Email verification and change of email (docs/guides/email.md). The section
 * being given turns both on; both mail the user, so both need the password method.
 */
export interface EmailVerificationOptions {
  /** A login with the right password of a user whose email is not verified is refused (403 EMAIL_NOT_VERIFIED). @default false */
  required?: boolean;
  /** Lifetime of a verification or confirmation token. @default 86400 (300..604800) */
  tokenTtlSeconds?: number;
  /** The application's page a verification link opens (`<baseUrl><verifyPath>?token=`); it POSTs the token. @default '/verify-email' */
  verifyPath?: string;
  /** The application's page a change-of-email confirmation opens (`<baseUrl><confirmPath>?token=`). @default '/confirm-email' */
  confirmPath?: string;
  /** The application's page the cancel link of a change-of-email notice opens (`<baseUrl><cancelPath>?token=`). @default '/cancel-email-change' */
  cancelPath?: string;
  /**
   * The application mails the links and notices: observers of `svc.email.verification_requested`,
   * `svc.email.change_requested` and `svc.email.change_notice` must exist, or startup fails (nothing
   * silently dropped). `false`: it sends no such mail. @default true
   */
  sendsMail?: boolean;
}

/**
 * Two-step login with an authenticator app (TOTP, RFC 6238) and recovery codes (docs/guides/two-step.md). The section being given turns it on; it needs the password method and a secret to derive
 * its keys from (`secret`, else `jwt.secretKey` or an OAuth `secretKey`).
 */
export interface MfaOptions {
  /** The name the authenticator app shows beside the account (the otpauth URL's issuer). Required. */
  issuer: string;
  /** Lifetime of the challenge a password login gets instead of a credential. @default 300 (60..900) */
  challengeTtlSeconds?: number;
  /**
   * Provider logins (oauth2, oidc) of a user with two-step login on are challenged too: the callback
   * sets the challenge cookie and redirects with `mfa=required` (docs/guides/two-step.md). `false`
   * lets the provider's own factors stand for the second one. Given as `true`, it needs a provider
   * method (OWASP ASVS 5.0 V6: a second factor on every way in). @default true
   */
  challengeProviderLogins?: boolean;
  /**
   * Earlier values of the module's `secret`, newest first: stored TOTP secrets encrypted under a key
   * derived from one of them still decrypt, and are encrypted again under the current key at their
   * next use (docs/guides/two-step.md, rotation). @default []
   */
  previousSecrets?: string[];
}

/**
 * Passkeys (docs/guides/passkeys.md): WebAuthn credentials a signed-in user adds, then signs in with.
 * The relying party is `baseUrl`: its host is the relying party id, its origin the expected origin.
 */
export interface PasskeyOptions {
  /** The name an authenticator shows beside the account. @default the host of `baseUrl` */
  rpName?: string;
  /**
   * Further origins whose passkey responses are accepted for the same relying party id: an
   * `https://` origin (a subdomain, or a related origin the browser allows through
   * `/.well-known/webauthn`), or an Android app's
   * `android:apk-key-hash:<base64url SHA-256 of its signing certificate>`. @default []
   */
  extraOrigins?: string[];
  /** Lifetime of a registration or login challenge (and of its cookie). @default 300 (30..600) */
  challengeTtlSeconds?: number;
  /**
   * Whether the authenticator must verify the user (a PIN, a fingerprint): `required` makes a passkey
   * two factors in one; `preferred` accepts a tap alone. @default 'required'
   */
  userVerification?: 'required' | 'preferred';
}

/**
 * User administration (docs/guides/administration.md): the `/admin` routes, each behind its
 * permission of the `authorization` policy, which it needs.
 */
export interface AdminOptions {
  /** Longest an administrator's impersonation of a user lasts. @default 3600 (60..3600) */
  impersonationTtlSeconds?: number;
}

/**
 * API keys (docs/guides/machine-access.md): a signed-in user creates keys for scripts and other
 * services, each limited to some of the user's permissions; `Authorization: Bearer <key>` then
 * authenticates the application's routes behind `CurrentUserGuard` (and `/me`), no other library route.
 */
export interface ApiKeysOptions {
  /** What every key starts with, so a scanner or a log filter can spot one: letters, digits, `_` or `-`, starting with a letter. @default 'svc_' (1..32 characters) */
  prefix?: string;
  /** Live (unrevoked, unexpired) keys one user may hold. @default 20 (1..1000) */
  maxPerUser?: number;
}

/**
 * Fresh sign-in (docs/guides/account-security.md, "Fresh sign-in"): how recent a real sign-in must
 * be for the routes that add or remove a way in (and `@RequireFreshAuth()` routes). Always on.
 */
export interface ReauthOptions {
  /** Seconds since the credential's last real sign-in within which it counts as fresh. @default 900 (1..86400) */
  maxAgeSeconds?: number;
}

/**
 * The activity log (docs/guides/account-security.md): every security-relevant change to an account
 * written beside the change, `GET /me/activity`, and `GET /admin/audit` with the `admin` section.
 */
export interface AuditOptions {
  /** Entries older than this many days are deleted by the purge (`AuthService.purgeExpired()`). @default 365 (1..3650) */
  retentionDays?: number;
}

/**
 * Organizations (docs/guides/organizations.md): users create organizations, invite members by email
 * and act in one of them at a time. Their roles are a policy of their own, apart from `authorization`:
 * each organization role grants permissions `<resource>:<action>` or `<resource>:*` inside that
 * organization only.
 */
export interface OrganizationsOptions {
  /** Every organization role and the permissions it grants in its organization: `{ owner: ['organization:*', 'members:*'], member: ['projects:read'] }`. Required. */
  roles: Record<string, readonly string[]>;
  /** The role of an organization's creator; an organization always keeps a member holding it (409 `LAST_OWNER`). Required. */
  creatorRole: string;
  /** How long an invitation can be accepted. @default 72 (1..720) */
  invitationTtlHours?: number;
  /** The application's page the invitation mail links to, `<baseUrl><invitationPath>?token=<token>`. @default '/accept-invitation' */
  invitationPath?: string;
  /**
   * Whether the application mails invitations: then something must observe
   * `svc.organization.invitation_mail` or startup stops. @default true
   */
  sendsInvitationMail?: boolean;
}

export type RateLimitBackend = 'memory' | 'database' | 'redis';

/** The start of the redis limiter's keys when `rateLimit.redisKeyPrefix` is not given. */
export const DEFAULT_REDIS_KEY_PREFIX = 'svc:rate-limit:';

/**
 * The commands the redis limiter sends. An ioredis `Redis` client has them, and so has an ioredis
 * `Cluster`: each counter is one key, so its script runs on the node that holds it.
 */
export interface RedisCommands {
  evalsha(sha1: string, numberOfKeys: number, key: string, expiryMs: number, amount: number): Promise<unknown>;
  eval(script: string, numberOfKeys: number, key: string, expiryMs: number, amount: number): Promise<unknown>;
  ping(): Promise<unknown>;
}

/**
 * A Redis that svc connects to itself (ioredis, `new Redis(url)`) and disconnects when the
 * application shuts down (docs/guides/rate-limiting.md). A client given instead is the application's:
 * svc never closes it.
 */
export interface RedisUrl {
  /** `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS. */
  url: string;
}

/**
 * What the principal cache's redis invalidation needs of an ioredis client (docs/guides/principal-cache.md): `publish` on it, and a `duplicate()` connection of its own to subscribe on.
 */
export interface RedisPubSubClient {
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(options?: { connectionName?: string }): RedisSubscriber;
}

/** The subscribing connection `RedisPubSubClient.duplicate()` returns (an ioredis client). */
export interface RedisSubscriber {
  subscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  on(event: 'ready' | 'close' | 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

/**
 * The revocable principal cache (docs/guides/principal-cache.md): guarded requests whose credential was
 * resolved lately skip the database; every revocation, on any instance, evicts it everywhere.
 */
export interface PrincipalCacheOptions {
  /** Principals held at most; past it the least recently used goes. @default 10000 (100..1000000) */
  maxEntries?: number;
  /** Longest a principal is served from the cache, a backstop behind invalidation. @default 60 (1..3600) */
  ttlSeconds?: number;
  /**
   * How instances tell each other about revocations: PostgreSQL `LISTEN/NOTIFY` on the data
   * source's database, Redis pub/sub through `redis`, or `'local'` (this process only: one
   * instance alone on its database). @default 'redis' when `redis` is given, else 'postgres' on
   * PostgreSQL (startup fails when neither applies and 'local' is not chosen)
   */
  invalidation?: 'postgres' | 'redis' | 'local';
  /**
   * For `invalidation: 'redis'`: the application's ioredis client (it stays the application's to
   * close; svc closes only the duplicate it subscribes on), or `{ url }` for a client svc opens and
   * closes at shutdown with its duplicate.
   */
  redis?: RedisPubSubClient | RedisUrl;
  /** The channel (a PostgreSQL identifier, or a Redis channel) every instance of the application shares. @default 'svc_principal_cache' */
  channel?: string;
}

/**
 * Roles and permissions (docs/guides/roles-and-permissions.md): each role grants permissions
 * `<resource>:<action>`, or `<resource>:*` for every action of a resource. Roles are stored per user
 * (table `user_roles`); the principal carries them and their permissions.
 */
export interface AuthorizationOptions {
  /** Every role and the permissions it grants: `{ admin: ['users:*'], editor: ['notes:read', 'notes:write'] }`. Required. */
  roles: Record<string, readonly string[]>;
  /** Roles every new user gets at signup (password and provider signups alike). @default [] */
  defaultRoles?: readonly string[];
  /**
   * Roles a user is given by a rule of the application, besides `defaultRoles` (say, `admin` for the
   * operators' addresses once proven). Asked in the transaction of every signup and of the first
   * proof of the user's mailbox (verify-email, or a reset that verifies it), with the user's
   * normalised email and whether it is verified; the roles it names are granted there, never
   * revoked by it. A role the policy does not define fails that request (500) rather than being
   * granted. @default none
   */
  assignRoles?: (user: { readonly email: string; readonly emailVerified: boolean }) => readonly string[];
}

export interface RateLimitOptions {
  /** @default 60 (>= 1) */
  windowSeconds?: number;
  /** @default 10 (>= 1) */
  max?: number;
  /**
   * Failed logins of one account, from all addresses together, per window, past which an address
   * that has itself failed for the account is refused; an address with no failure for it never is
   * (docs/guides/rate-limiting.md). @default 10 × max (max..10000000)
   */
  accountCeiling?: number;
  /**
   * Opt-in client-address header, e.g. 'x-forwarded-for': its right-most entry is the client. The
   * same as `trustProxy: 1, clientIpHeader: <it>`, and applies to the whole library. @default unset
   */
  trustedIpHeader?: string;
  /** @default 'memory' */
  backend?: RateLimitBackend;
  /** What a request gets when the backend is down. @default 'deny' */
  onBackendError?: 'deny' | 'allow';
  /**
   * Required for the redis backend: the application's ioredis `Redis` (or `Cluster`) client, which
   * stays the application's to close (svc never quits it), or `{ url }` for a client svc opens and
   * closes at shutdown.
   */
  redis?: RedisCommands | RedisUrl;
  /**
   * Start of every counter key of the redis backend (`<prefix><window start>:<key>`): give each
   * application sharing one Redis its own, or their equal routes share counters. At most 64
   * printable ASCII characters, no spaces, no `{` or `}` (a Redis Cluster hash tag). @default 'svc:rate-limit:'
   */
  redisKeyPrefix?: string;
  /** Keys the memory backend holds at most; past it, new keys are refused with 429. @default 100000 (100..10000000) */
  memoryMaxKeys?: number;
}

/** The options of `AuthModule.forRoot`, or what the factory of `forRootAsync` returns. */
export interface AuthOptions {
  /** Public base URL of the application; its origin is trusted for the cross-site check. Required. */
  baseUrl: string;
  /**
   * One random secret (32+ characters, e.g. `openssl rand -base64 32`) from which the module derives
   * a key per purpose (docs/decisions/0010-secrets.md): the jwt signing key and the OAuth state key, unless their
   * sections give their own `secretKey`. @default unset: each section that signs needs its own
   */
  secret?: string;
  /** Further origins allowed to send cookie-authenticated requests. @default [] */
  trustedOrigins?: string[];
  /** Body size limit of the auth endpoints, in bytes. @default 16384 */
  bodyLimitBytes?: number;
  /** A before-hook that has not answered after this many seconds fails the request (500 HOOK_FAILED). @default 10 (1..60) */
  hookTimeoutSeconds?: number;
  /**
   * The proxies in front of the application, as Express's `trust proxy`: how many (a hop count),
   * or their addresses and CIDRs (`['loopback', '10.0.0.0/8']`). The client address (for the rate
   * limiter, session rows and events) is then read from `clientIpHeader`. @default unset: the socket's address
   */
  trustProxy?: number | string[];
  /** The header the trusted proxies write the client address into. @default 'x-forwarded-for' */
  clientIpHeader?: string;
  /**
   * Deletes expired sessions, refresh tokens, used or expired reset tokens and ended limiter
   * windows on a schedule, through @nestjs/schedule (import `ScheduleModule.forRoot()`).
   * @default unset: `AuthService.purgeExpired()` is yours to call
   */
  purge?: { cron: string };
  /** The jwt credential's settings (with `credential: 'jwt'`, or with `nativeClients: true`). */
  jwt?: JwtOptions;
  /** The session credential's settings (only with `credential: 'session'`). */
  session?: SessionOptions;
  cookie?: CookieOptions;
  /** Login with a password (signup, login, forgot and reset, change). */
  password?: PasswordOptions;
  /** Email verification and change of email (needs the password method). @default unset: neither */
  emailVerification?: EmailVerificationOptions;
  /** Two-step login: TOTP and recovery codes (needs the password method and a secret). @default unset: off */
  mfa?: MfaOptions;
  rateLimit?: RateLimitOptions;
  /** Passkeys beside the other ways in (needs `secret`; docs/guides/passkeys.md). @default unset: no passkey routes */
  passkeys?: PasskeyOptions;
  /** Opt-in cache of resolved principals, revocable across instances (docs/guides/principal-cache.md). @default unset: every guarded request reads the database */
  principalCache?: PrincipalCacheOptions;
  /** Roles and permissions of the application's users (docs/guides/roles-and-permissions.md). @default unset: no roles in the user body */
  authorization?: AuthorizationOptions;
  /** The `/admin` routes and impersonation (needs `authorization`; docs/guides/administration.md). @default unset: no admin routes */
  admin?: AdminOptions;
  /** API keys for scripts and other services (docs/guides/machine-access.md). @default unset: no `/api-keys` routes, no key accepted */
  apiKeys?: ApiKeysOptions;
  /** svc mails every message itself through this transport (docs/guides/account-security.md). @default unset: the application's observers send them */
  mail?: MailOptions;
  /** Fresh sign-in before sensitive changes (docs/guides/account-security.md). @default { maxAgeSeconds: 900 }: always on */
  reauth?: ReauthOptions;
  /** The activity log and the `new_device` notice (docs/guides/account-security.md). @default unset: nothing written, no activity routes */
  audit?: AuditOptions;
  /** Organizations, their members, invitations and roles (docs/guides/organizations.md). @default unset: no organization routes */
  organizations?: OrganizationsOptions;
  /** Login through plain OAuth 2.0 providers. */
  oauth2?: OAuthSectionOptions<OAuth2ProviderOptions>;
  /** Login through OpenID Connect providers. */
  oidc?: OAuthSectionOptions<OidcProviderOptions>;
}

/** Entity classes the library stores its rows with; each may be extended by the application. */
export interface AuthEntities {
  /** @default the library's `User` entity (table `users`) */
  user?: Type<SvcUser>;
}

/** What the configuration reads of the graph-shaping extras (docs/reference/options.md). */
export interface ConfigShapeOptions extends ModuleShapeOptions {
  /** Path prefix of every endpoint. @default '/auth' */
  prefix?: string;
  entities?: AuthEntities;
  globalGuard?: boolean;
  /**
   * Native clients beside the web (docs/guides/machine-access.md): a request with `X-Svc-Client: native`
   * to a route that issues a credential gets the jwt credential in the JSON body and no cookie, whatever
   * the module's credential; the bearer access token is accepted beside the browser credential. @default false
   */
  nativeClients?: boolean;
}
