import type { Type } from '@nestjs/common';
import type { SvcUser } from '../entities/user.entity.js';
import type { RedisCommands, RedisPubSubClient, RedisUrl } from './auth-options.js';
import type { MailKind, MailTemplate, MailTransport } from './mail-options.js';
import type { CredentialKind, LoginMethod } from './login-methods.js';
import type { OAuth2ProviderConfig, OAuthSectionConfig, OidcProviderConfig } from './oauth-config.js';

/** `jwt.signing`, checked: the keys are PKCS #8 PEM of the algorithm's type, the signing key first; `iss` and `aud` filled in. */
export interface JwtSigningConfig {
  readonly algorithm: 'EdDSA' | 'ES256' | 'RS256' | 'HS256';
  readonly keys: readonly { readonly kid: string; readonly privateKey: string }[];
  readonly issuer: string;
  readonly audience: string;
}

/** The validated, defaulted and frozen configuration every service reads. */
export interface AuthConfig {
  /** The credential every login issues. */
  readonly credential: CredentialKind;
  /** The login methods the module serves, in a fixed order (password, oauth2, oidc). */
  readonly loginMethods: readonly LoginMethod[];
  /** Absolute, without a trailing slash. */
  readonly baseUrl: string;
  readonly prefix: string;
  /** Origins allowed for cookie-authenticated unsafe requests (the base URL's first). */
  readonly trustedOrigins: readonly string[];
  readonly bodyLimitBytes: number;
  readonly hookTimeoutSeconds: number;
  readonly purge?: { readonly cron: string };
  /** Where the client address comes from behind proxies; absent: the socket's address. */
  readonly clientAddress?: {
    readonly trustProxy: number | readonly string[];
    readonly header: string;
  };
  readonly userEntity: Type<SvcUser>;
  /** `globalGuard: true`: every route of the application needs the credential unless `@Public()`. */
  readonly globalGuard: boolean;
  /** Native clients get the jwt credential in the body beside the browser credential (docs/guides/machine-access.md). */
  readonly nativeClients: boolean;
  /** Present whenever the credential is jwt or native clients are on: the jwt section's key, or one derived from `secret` (or, in the OAuth shorthand, from the section's). */
  readonly jwt?: {
    readonly secretKey: string;
    readonly algorithm: 'HS256' | 'HS384' | 'HS512';
    readonly accessTokenExpireMinutes: number;
    readonly refreshTokenExpireDays: number;
    readonly refreshReuseGraceSeconds: number;
    readonly refreshFamilyTtlSeconds: number;
    /** With `jwt.signing` (docs/guides/machine-access.md). */
    readonly signing?: JwtSigningConfig;
  };
  readonly oauth2?: OAuthSectionConfig<OAuth2ProviderConfig>;
  readonly oidc?: OAuthSectionConfig<OidcProviderConfig>;
  readonly session: {
    readonly expireDays: number;
    readonly maxPerUser: number;
    readonly loginOnSignup: boolean;
    readonly absoluteTtlSeconds: number;
  };
  readonly cookie: {
    readonly sessionName: string;
    readonly refreshName: string;
    readonly oauthStateName: string;
    readonly mfaChallengeName: string;
    readonly passkeyChallengeName: string;
    readonly secure: boolean;
    readonly sameSite: 'lax' | 'strict' | 'none';
    readonly path: string;
    readonly domain?: string;
  };
  readonly password: {
    readonly minLength: number;
    readonly maxLength: number;
    readonly bcryptCost: number;
    readonly resetTokenTtlMinutes: number;
    readonly resetPath: string;
    readonly sendsResetMail: boolean;
  };
  /** Present when email verification and change of email are on. */
  readonly emailVerification?: {
    readonly required: boolean;
    readonly tokenTtlSeconds: number;
    readonly verifyPath: string;
    readonly confirmPath: string;
    readonly cancelPath: string;
    readonly sendsMail: boolean;
  };
  /** Present when two-step login is on. */
  readonly mfa?: {
    readonly issuer: string;
    readonly challengeTtlSeconds: number;
    readonly challengeProviderLogins: boolean;
    /** AES-256-GCM keys of the stored TOTP secrets, the current one first, each with its id (docs/guides/two-step.md). */
    readonly secretKeys: readonly { readonly id: string; readonly key: string }[];
    /** HMAC key of the challenge tokens. */
    readonly challengeKey: string;
  };
  /** Present when passkeys are on (docs/guides/passkeys.md). */
  readonly passkeys?: {
    /** The host of `baseUrl` (WebAuthn L2 §5.1.2, `rp.id`). */
    readonly rpId: string;
    readonly rpName: string;
    /** `baseUrl`'s origin, then `extraOrigins`. */
    readonly origins: readonly string[];
    readonly challengeTtlSeconds: number;
    readonly userVerification: 'required' | 'preferred';
    /** HMAC key of the challenge cookie, derived from `secret`. */
    readonly challengeKey: string;
  };
  /** The principal cache (docs/guides/principal-cache.md); absent: off. `invalidation` unset means "from the database type". */
  readonly principalCache?: {
    readonly maxEntries: number;
    readonly ttlSeconds: number;
    readonly invalidation?: 'postgres' | 'redis' | 'local';
    readonly redis?: RedisPubSubClient | RedisUrl;
    readonly channel: string;
  };
  /** Roles and permissions (docs/guides/roles-and-permissions.md); absent: off. */
  readonly authorization?: {
    /** Each role's permissions, sorted, as written (`users:*` is not expanded). */
    readonly roles: Readonly<Record<string, readonly string[]>>;
    readonly defaultRoles: readonly string[];
    readonly assignRoles?: (user: { readonly email: string; readonly emailVerified: boolean }) => readonly string[];
  };
  /** Fresh sign-in (docs/guides/account-security.md): always present. */
  readonly reauth: {
    readonly maxAgeSeconds: number;
  };
  /** Present when the `/admin` routes are on (docs/guides/administration.md). */
  readonly admin?: {
    readonly impersonationTtlSeconds: number;
    /** HMAC key of the user list's cursors, derived from the secret. */
    readonly cursorKey: string;
  };
  /** Present when API keys are on (docs/guides/machine-access.md). */
  readonly apiKeys?: {
    readonly prefix: string;
    readonly maxPerUser: number;
  };
  /** Present when svc sends the messages itself (docs/guides/account-security.md). */
  readonly mail?: {
    readonly transport: MailTransport;
    readonly from: string;
    /** The application's templates, by kind; a kind not here has svc's default. */
    readonly templates: Readonly<Partial<Record<MailKind, MailTemplate>>>;
    readonly links: { readonly account: string };
  };
  /** Present when the activity log is on (docs/guides/account-security.md). */
  readonly audit?: {
    readonly retentionDays: number;
  };
  /** Organizations (docs/guides/organizations.md); absent: off. */
  readonly organizations?: {
    /** Each organization role's permissions, sorted, as written. */
    readonly roles: Readonly<Record<string, readonly string[]>>;
    readonly creatorRole: string;
    readonly invitationTtlHours: number;
    readonly invitationPath: string;
    readonly sendsInvitationMail: boolean;
  };
  readonly rateLimit?: {
    readonly windowSeconds: number;
    readonly max: number;
    /** Failed logins of one account from all addresses in a window past which an address that has failed it is refused. */
    readonly accountCeiling: number;
    /** HMAC key of the per-account counters, derived from a secret; absent: the memory backend draws one per process. */
    readonly accountKey?: string;
    readonly backend: 'memory' | 'database' | 'redis';
    readonly onBackendError: 'deny' | 'allow';
    readonly redis?: RedisCommands | RedisUrl;
    /** Start of every counter key of the redis backend. */
    readonly redisKeyPrefix: string;
    readonly memoryMaxKeys: number;
  };
}
