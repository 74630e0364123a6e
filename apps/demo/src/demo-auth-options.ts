import type { AuthModuleExtras, AuthOptions, OAuthProviderOptionsBase, ProfileColumnsMapper } from '#svc/auth';
import type { DemoConfig } from './demo-config.js';
import { DemoUser } from './users/demo-user.entity.js';

/** Where a failed provider callback lands (`/?error=<CODE>`): the page shows the code's message. */
const CALLBACK_ERROR_PAGE = '/';

/** The name an authenticator app shows beside the demo's codes (the `otpauth://` URL's issuer). */
export const DEMO_TOTP_ISSUER = 'svc demo';

/**
 * The demo's policy: `admin` looks after users (and will read the activity log); `member` is every
 * new user's role and grants nothing. A user whose address is on DEMO_ADMIN_EMAILS holds `admin`
 * once the address is proven: when it is verified, or at signup when verification is off (docs/demo.md).
 */
function demoAuthorization(config: DemoConfig): NonNullable<AuthOptions['authorization']> {
  const verificationOff = config.emailVerification === 'off';
  return {
    roles: { admin: ['users:*', 'audit:read'], member: [] },
    defaultRoles: ['member'],
    assignRoles: ({ email, emailVerified }) => (config.adminEmails.has(email) && (emailVerified || verificationOff) ? ['admin'] : []),
  };
}

/**
 * The demo's organizations (AUTH_ORGANIZATIONS=on, docs/guides/organizations.md): `owner` holds every
 * permission, listed by resource; `admin` all but deleting the organization; `member` reads projects.
 * The creator is `owner`.
 */
export const DEMO_ORGANIZATIONS = {
  roles: {
    owner: ['organization:*', 'members:*', 'projects:*'],
    admin: ['organization:update', 'members:*', 'projects:*'],
    member: ['projects:read'],
  },
  creatorRole: 'owner',
} as const satisfies AuthOptions['organizations'];

/** Two-step login wherever people sign in with a password (docs/demo.md). */
const DEMO_MFA = { issuer: DEMO_TOTP_ISSUER };

/** A new user's display name is the provider's name for them (the library drops it if it breaks the column's rules). */
const displayNameFromProvider: ProfileColumnsMapper = (_profile, userInfo) => ({ displayName: userInfo.name });

function withColumns<P extends OAuthProviderOptionsBase>(providers: P[]): P[] {
  return providers.map((provider) => ({ ...provider, mapProfileToColumns: displayNameFromProvider }));
}

/**
 * The options the demo gives `AuthModule.forRoot`: with AUTH_LOGIN, one credential and a set of
 * login methods, every key derived from AUTH_SECRET, failed callbacks sent back to the page, a
 * provider's name for a new user as its display name; without it, the seed's `strategy` shape, as it always was.
 * Either way, two-step login wherever there is a password, and passkeys beside a password where
 * AUTH_BASE_URL allows them (DemoConfig.passkeys). Redis, at REDIS_URL, is given as `{ url }`: svc opens
 * the clients and closes them at shutdown.
 */
export function demoAuthOptions(config: DemoConfig): AuthOptions & AuthModuleExtras {
  const common = {
    entities: { user: DemoUser },
    // The links of the MAIL lines open the page's /verify-email, /confirm-email and /cancel-email-change, the library's default paths.
    emailVerification: config.emailVerification === 'off' ? undefined : { required: config.emailVerification === 'required' },
    baseUrl: config.baseUrl,
    cookie: { secure: config.cookieSecure },
    // Beside a password, where AUTH_BASE_URL allows them: its host is the relying party id, its origin the expected origin.
    passkeys: config.passkeys ? {} : undefined,
    rateLimit: config.rateLimit && {
      backend: config.rateLimit.backend,
      max: config.rateLimit.max,
      windowSeconds: config.rateLimit.windowSeconds,
      trustedIpHeader: config.rateLimit.trustedIpHeader,
      redis: config.rateLimit.backend === 'redis' ? { url: config.rateLimit.redisUrl } : undefined,
    },
    authorization: demoAuthorization(config),
    admin: {},
    // AUTH_NATIVE_CLIENTS=on, under either credential (docs/guides/machine-access.md).
    nativeClients: config.nativeClients || undefined,
    // AUTH_API_KEYS=on: the page's API key list; a key then reaches GET /profile and /auth/me.
    apiKeys: config.apiKeys ? {} : undefined,
    // Fresh sign-in (docs/guides/account-security.md): the page asks "Confirm it's you" when a change meets REAUTH_REQUIRED.
    reauth: { maxAgeSeconds: config.reauthMaxAgeSeconds },
    // AUTH_BCRYPT_COST (12 by default); the section exists only where people sign in with a password.
    password: config.login.includes('password') ? { bcryptCost: config.bcryptCost } : undefined,
    // AUTH_AUDIT=off: no activity log, no GET /auth/me/activity or /auth/admin/audit.
    audit: config.audit ? {} : undefined,
    organizations: config.organizations ? { roles: { ...DEMO_ORGANIZATIONS.roles }, creatorRole: DEMO_ORGANIZATIONS.creatorRole } : undefined,
    principalCache: config.principalCache && {
      invalidation: config.principalCache.invalidation,
      redis: config.principalCache.invalidation === 'redis' ? { url: config.principalCache.redisUrl } : undefined,
    },
  };
  const { strategy } = config;
  if (strategy !== undefined) {
    return {
      ...common,
      // The session shorthand has no section with a secret: the limiter's per-account key, two-step login's and the
      // passkey challenges' keys are derived from this one (the others derive them from their section's secretKey).
      secret: strategy === 'session' ? config.secret : undefined,
      strategy,
      mfa: strategy === 'session' || strategy === 'jwt' ? DEMO_MFA : undefined,
      jwt: strategy === 'jwt' ? { secretKey: config.secret, signing: config.jwtSigning?.signing } : config.jwtSigning && { signing: config.jwtSigning.signing },
      oauth2: strategy === 'oauth2' ? { secretKey: config.secret, strategy: config.credential, providers: config.oauth2Providers } : undefined,
      oidc: strategy === 'oidc' ? { secretKey: config.secret, strategy: config.credential, providers: config.oidcProviders } : undefined,
    };
  }
  const has = (method: DemoConfig['login'][number]) => config.login.includes(method);
  return {
    ...common,
    secret: config.secret,
    credential: config.credential,
    jwt: config.jwtSigning && { signing: config.jwtSigning.signing },
    mfa: has('password') ? DEMO_MFA : undefined,
    oauth2: has('oauth2') ? { providers: withColumns(config.oauth2Providers), errorRedirect: CALLBACK_ERROR_PAGE } : undefined,
    oidc: has('oidc') ? { providers: withColumns(config.oidcProviders), errorRedirect: CALLBACK_ERROR_PAGE } : undefined,
  };
}
