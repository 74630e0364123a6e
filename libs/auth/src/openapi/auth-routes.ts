import type { AuthConfig } from '../config/auth-config.js';
import type { AuthErrorCode } from '../errors/error-codes.js';
import type { AuthSchemaName } from '../users/auth-schemas.js';
import { adminRoutes } from './admin-routes.js';

/** What the document says about one route of the library. */
export interface AuthRoute {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Below the prefix, OpenAPI style (`/oauth2/{provider}/login`). */
  path: string;
  summary: string;
  body?: AuthSchemaName;
  /** The success answer: its status, and what its body is. */
  success: {
    status: number;
    description: string;
    body?:
      | 'user'
      | 'token'
      | 'credential'
      | 'linkUrl'
      | 'accounts'
      | 'devices'
      | 'passkeyCreationOptions'
      | 'passkeyRequestOptions'
      | 'passkey'
      | 'passkeys'
      | 'mfaSetup'
      | 'recoveryCodes'
      | 'loginOrChallenge';
  };
  /** Whether the route needs the credential (and so names the security scheme). */
  authenticated?: boolean;
  /** The permissions the route needs (`x-svc-permissions`), as `@Permissions` gives them. */
  permissions?: string[];
  /** The refresh cookie, for /refresh and the jwt logout. */
  refreshCookie?: boolean;
  /** The path parameters and the values each may take (`'uuid'`: any UUID). */
  pathParameters?: Record<string, string[] | 'uuid'>;
  /** The `redirect` query parameter of the OAuth flows. */
  redirectQuery?: boolean;
  /** A provider's callback: with the section's `errorRedirect`, errors answer 303 to it instead. */
  errorRedirect?: boolean;
  errors: AuthErrorCode[];
  /** A code this route answers with another status than its usual one (`MFA_CODE_INVALID` is 401 at /mfa/verify). */
  errorStatus?: Partial<Record<AuthErrorCode, number>>;
}

/** Refusals any library route can give (the body rules, the limiter, outages). */
const COMMON: AuthErrorCode[] = ['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
/** A body's refusals; then those of a body that goes through a before-hook. */
const BODY_RULES: AuthErrorCode[] = ['VALIDATION_FAILED', 'MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
const BODY: AuthErrorCode[] = [...BODY_RULES, 'HOOK_ABORTED', 'HOOK_FAILED'];

/** Every route the module serves: its login methods', then its credential's. */
export function authRoutes(config: AuthConfig): AuthRoute[] {
  const limited: AuthErrorCode[] = config.rateLimit ? ['RATE_LIMITED'] : [];
  const credentialBody = config.credential === 'jwt' ? 'token' : 'user';
  const required = config.emailVerification?.required === true;
  const signupSignsIn = !(config.credential === 'session' && !config.session.loginOnSignup) && !required;
  // docs/decisions/0022-account-pre-hijacking.md: no way in is added before the email is verified.
  const unverified: AuthErrorCode[] = config.emailVerification ? ['EMAIL_NOT_VERIFIED'] : [];
  const password: AuthRoute[] = config.loginMethods.includes('password')
    ? [
        {
          method: 'post',
          path: '/signup',
          summary: 'Create an account' + (signupSignsIn ? ' and sign it in' : ''),
          body: 'signup',
          success: { status: 201, description: 'Created', body: signupSignsIn ? credentialBody : 'user' },
          errors: [...BODY, 'EMAIL_ALREADY_REGISTERED', 'CSRF_REJECTED', ...limited],
        },
        {
          method: 'post',
          path: '/login',
          summary: 'Sign in with email and password' + (config.mfa ? ' (a user with two-step login gets a challenge instead of the credential)' : ''),
          body: 'login',
          success: config.mfa ? { status: 200, description: 'Signed in, or a second factor owed', body: 'loginOrChallenge' } : { status: 200, description: 'Signed in', body: credentialBody },
          errors: [...BODY, 'INVALID_CREDENTIALS', 'USER_INACTIVE', ...(required ? (['EMAIL_NOT_VERIFIED'] as const) : []), 'CSRF_REJECTED', ...limited],
        },
        {
          method: 'post',
          path: '/forgot-password',
          summary: 'Ask for a password-reset mail (the same answer whether or not the email exists)',
          body: 'forgotPassword',
          success: { status: 202, description: 'Accepted' },
          errors: [...BODY, 'CSRF_REJECTED', ...limited],
        },
        {
          method: 'post',
          path: '/reset-password',
          summary: 'Set a new password with a mailed token; every credential of the user ends',
          body: 'resetPassword',
          success: { status: 204, description: 'Password set' },
          errors: [...BODY, 'RESET_TOKEN_INVALID', 'CSRF_REJECTED', ...limited],
        },
        {
          method: 'post',
          path: '/change-password',
          summary: "Change the signed-in user's password; the user's other credentials end",
          body: 'changePassword',
          authenticated: true,
          success: { status: 204, description: 'Password changed' },
          errors: [...BODY, 'UNAUTHENTICATED', 'CURRENT_PASSWORD_INVALID', 'CSRF_REJECTED', ...limited],
        },
        ...(config.emailVerification ? emailRoutes(limited) : []),
        ...(config.mfa ? mfaRoutes(limited, credentialBody, unverified) : []),
      ]
    : [];
  const oauthMethods = (['oauth2', 'oidc'] as const).filter((method) => config.loginMethods.includes(method));
  const providersOf = (method: 'oauth2' | 'oidc') => config[method]?.providers.map((provider) => provider.name) ?? [];
  const oauth = oauthMethods.flatMap((method) => [
    ...['login', 'callback'].map(
      (step): AuthRoute => ({
        method: 'get',
        path: `/${method}/{provider}/${step}`,
        summary: step === 'login' ? 'Start a login at the provider (a redirect)' : 'The provider sends the browser back here: a login sets the credential, a link keeps it',
        pathParameters: { provider: providersOf(method) },
        redirectQuery: step === 'login',
        errorRedirect: step === 'callback' && config[method]?.errorRedirect !== undefined,
        success: { status: 302, description: step === 'login' ? 'To the provider' : 'To the post-login redirect, the credential set', body: step === 'login' ? undefined : 'credential' },
        errors:
          step === 'login'
            ? ['OAUTH_PROVIDER_UNKNOWN', 'INVALID_REDIRECT', 'OAUTH_PROVIDER_UNAVAILABLE', ...limited]
            : [
                'OAUTH_PROVIDER_UNKNOWN',
                'OAUTH_STATE_INVALID',
                'OAUTH_PROVIDER_ERROR',
                'OAUTH_CODE_REJECTED',
                'OAUTH_PROVIDER_UNAVAILABLE',
                ...(method === 'oidc' ? (['OIDC_ID_TOKEN_INVALID'] as const) : []),
                'OAUTH_EMAIL_MISSING',
                'OAUTH_EMAIL_UNVERIFIED',
                'OAUTH_ACCOUNT_NOT_LINKED',
                'OAUTH_ACCOUNT_ORPHANED',
                'OAUTH_ACCOUNT_LINKED_ELSEWHERE',
                'OAUTH_PROVIDER_ALREADY_LINKED',
                ...unverified,
                'USER_INACTIVE',
                'HOOK_ABORTED',
                'HOOK_FAILED',
                ...limited,
              ],
      }),
    ),
    {
      method: 'post',
      path: `/${method}/{provider}/link`,
      summary: "Start linking an identity at the provider to the signed-in user's account: the provider's URL to open",
      body: 'empty',
      authenticated: true,
      pathParameters: { provider: providersOf(method) },
      redirectQuery: true,
      success: { status: 200, description: 'The authorization URL; the state cookie is set', body: 'linkUrl' },
      errors: [...BODY_RULES, 'UNAUTHENTICATED', ...unverified, 'OAUTH_PROVIDER_UNKNOWN', 'INVALID_REDIRECT', 'OAUTH_PROVIDER_UNAVAILABLE', 'CSRF_REJECTED', ...limited],
    } satisfies AuthRoute,
  ]);
  const accounts: AuthRoute[] =
    oauthMethods.length === 0
      ? []
      : [
          {
            method: 'get',
            path: '/accounts',
            summary: "The signed-in user's ways in: a password, and the linked identities",
            authenticated: true,
            success: { status: 200, description: 'The ways in', body: 'accounts' },
            errors: ['UNAUTHENTICATED'],
          },
          {
            method: 'delete',
            path: '/accounts/{method}/{provider}',
            summary: 'Unlink an identity (never the only way in)',
            authenticated: true,
            pathParameters: { method: oauthMethods, provider: oauthMethods.flatMap(providersOf) },
            success: { status: 204, description: 'Unlinked' },
            errors: ['UNAUTHENTICATED', 'NOT_FOUND', 'LAST_LOGIN_METHOD', 'CSRF_REJECTED'],
          },
        ];
  const credential: AuthRoute[] = [
    {
      method: 'get',
      path: '/me',
      summary: 'The signed-in user',
      authenticated: true,
      success: { status: 200, description: 'The user body', body: 'user' },
      errors: ['UNAUTHENTICATED'],
    },
    {
      method: 'post',
      path: '/logout',
      summary: 'End the presented credential (idempotent)',
      refreshCookie: config.credential === 'jwt',
      success: { status: 204, description: 'Signed out, cookie cleared' },
      errors: ['CSRF_REJECTED', 'HOOK_ABORTED', 'HOOK_FAILED'],
    },
    {
      method: 'get',
      path: '/sessions',
      summary: config.credential === 'jwt' ? "The signed-in user's live refresh families (one per login), newest first" : "The signed-in user's live sessions, newest first",
      authenticated: true,
      success: { status: 200, description: 'The devices', body: 'devices' },
      errors: ['UNAUTHENTICATED'],
    },
    {
      method: 'delete',
      path: '/sessions/{id}',
      summary: 'End one of the user\'s sessions: its credential is refused at its next request',
      authenticated: true,
      pathParameters: { id: 'uuid' },
      success: { status: 204, description: 'Ended' },
      errors: ['UNAUTHENTICATED', 'NOT_FOUND', 'CSRF_REJECTED'],
    },
    {
      method: 'delete',
      path: '/sessions',
      summary: "End every session of the user but this request's own",
      authenticated: true,
      success: { status: 204, description: 'Every other session ended' },
      errors: ['UNAUTHENTICATED', 'CSRF_REJECTED'],
    },
    ...(config.credential === 'jwt'
      ? [
          {
            method: 'post',
            path: '/refresh',
            summary: 'Trade the refresh cookie for a new access token and refresh cookie (single use)',
            refreshCookie: true,
            success: { status: 200, description: 'A fresh pair', body: 'token' },
            errors: ['REFRESH_TOKEN_INVALID', 'USER_INACTIVE', 'CSRF_REJECTED', 'HOOK_ABORTED', 'HOOK_FAILED', ...limited],
          } satisfies AuthRoute,
        ]
      : []),
  ];
  const passkeys = config.passkeys ? passkeyRoutes(limited, credentialBody, unverified) : [];
  return [...password, ...oauth, ...accounts, ...passkeys, ...credential, ...adminRoutes(config)].map((route) => ({ ...route, errors: [...route.errors, ...pathRules(route), ...COMMON] }));
}

/** A path parameter that is not valid percent-encoding is 400 VALIDATION_FAILED (RFC 3986 §2.1; docs/decisions/0004-errors.md). */
function pathRules(route: AuthRoute): AuthErrorCode[] {
  return route.path.includes('{') && !route.errors.includes('VALIDATION_FAILED') ? ['VALIDATION_FAILED'] : [];
}

/** Two-step login (docs/guides/two-step.md). */
function mfaRoutes(limited: AuthErrorCode[], credentialBody: 'user' | 'token', unverified: AuthErrorCode[] = []): AuthRoute[] {
  const settings: AuthErrorCode[] = [...BODY_RULES, 'UNAUTHENTICATED', 'CSRF_REJECTED', ...limited];
  return [
    {
      method: 'post',
      path: '/mfa/totp/setup',
      summary: 'Start setting up an authenticator app: a new secret, its otpauth URL and QR code (nothing is on until enable)',
      body: 'mfaPassword',
      authenticated: true,
      success: { status: 200, description: 'The secret, shown this once', body: 'mfaSetup' },
      errors: [...settings, ...unverified, 'CURRENT_PASSWORD_INVALID', 'MFA_ALREADY_ENABLED'],
    },
    {
      method: 'post',
      path: '/mfa/totp/enable',
      summary: 'Turn two-step login on with a first code of the app; the ten recovery codes',
      body: 'mfaCode',
      authenticated: true,
      success: { status: 200, description: 'On; the recovery codes, shown this once', body: 'recoveryCodes' },
      errors: [...settings, ...unverified, 'MFA_CODE_INVALID', 'MFA_ALREADY_ENABLED', 'MFA_SETUP_REQUIRED', 'HOOK_ABORTED', 'HOOK_FAILED'],
    },
    {
      method: 'post',
      path: '/mfa/totp/disable',
      summary: 'Turn two-step login off (the password, and a code or a recovery code)',
      body: 'mfaConfirm',
      authenticated: true,
      success: { status: 204, description: 'Off; the secret and the recovery codes deleted' },
      errors: [...settings, 'CURRENT_PASSWORD_INVALID', 'MFA_CODE_INVALID', 'MFA_NOT_ENABLED'],
    },
    {
      method: 'post',
      path: '/mfa/recovery-codes',
      summary: 'Ten new recovery codes (the password, and a code or a recovery code); the earlier ones stop working',
      body: 'mfaConfirm',
      authenticated: true,
      success: { status: 200, description: 'The new codes, shown this once', body: 'recoveryCodes' },
      errors: [...settings, 'CURRENT_PASSWORD_INVALID', 'MFA_CODE_INVALID', 'MFA_NOT_ENABLED'],
    },
    {
      method: 'post',
      path: '/mfa/verify',
      summary: "The login's second step: a code or a recovery code with the challenge cookie; the credential, as a login gives it",
      body: 'mfaVerify',
      success: { status: 200, description: 'Signed in', body: credentialBody },
      errors: [...BODY_RULES, 'MFA_CODE_INVALID', 'MFA_CHALLENGE_INVALID', 'CSRF_REJECTED', 'RATE_LIMITED'],
      errorStatus: { MFA_CODE_INVALID: 401 },
    },
  ];
}

/**
 * The library's routes the module mounts but does not serve (404): the email routes without the
 * `emailVerification` section, the two-step ones without `mfa`, the passkey routes without the
 * `passkeys` section.
 */
export function unservedAuthRoutes(config: AuthConfig): Pick<AuthRoute, 'method' | 'path'>[] {
  const password = config.loginMethods.includes('password');
  return [
    ...(password && !config.emailVerification ? emailRoutes([]) : []),
    ...(password && !config.mfa ? mfaRoutes([], 'user') : []),
    ...(config.passkeys ? [] : passkeyRoutes([], 'user')),
  ];
}

/** Passkeys (docs/guides/passkeys.md). */
function passkeyRoutes(limited: AuthErrorCode[], credentialBody: 'user' | 'token', unverified: AuthErrorCode[] = []): AuthRoute[] {
  return [
    {
      method: 'post',
      path: '/passkeys/register/options',
      summary: "Creation options for a new passkey of the signed-in user (navigator.credentials.create()); sets the challenge cookie",
      body: 'empty',
      authenticated: true,
      success: { status: 200, description: 'PublicKeyCredentialCreationOptionsJSON', body: 'passkeyCreationOptions' },
      errors: [...BODY_RULES, 'UNAUTHENTICATED', ...unverified, 'CSRF_REJECTED', ...limited],
    },
    {
      method: 'post',
      path: '/passkeys/register',
      summary: "Add the authenticator's new credential to the signed-in user's passkeys",
      body: 'passkeyRegistration',
      authenticated: true,
      success: { status: 201, description: 'The passkey', body: 'passkey' },
      errors: [...BODY_RULES, 'UNAUTHENTICATED', ...unverified, 'PASSKEY_INVALID', 'CSRF_REJECTED', ...limited],
    },
    {
      method: 'post',
      path: '/passkeys/login/options',
      summary: 'Request options for a passkey login (navigator.credentials.get()), naming no user; sets the challenge cookie',
      body: 'empty',
      success: { status: 200, description: 'PublicKeyCredentialRequestOptionsJSON', body: 'passkeyRequestOptions' },
      errors: [...BODY_RULES, 'CSRF_REJECTED', ...limited],
    },
    {
      method: 'post',
      path: '/passkeys/login',
      summary: 'Sign in with a passkey: the credential, as a password login gives it',
      body: 'passkeyLogin',
      success: { status: 200, description: 'Signed in', body: credentialBody },
      errors: [...BODY_RULES, 'PASSKEY_INVALID', 'USER_INACTIVE', 'CSRF_REJECTED', ...limited],
    },
    {
      method: 'get',
      path: '/passkeys',
      summary: "The signed-in user's passkeys, oldest first",
      authenticated: true,
      success: { status: 200, description: 'The passkeys', body: 'passkeys' },
      errors: ['UNAUTHENTICATED'],
    },
    {
      method: 'patch',
      path: '/passkeys/{id}',
      summary: 'Rename one of the user\'s passkeys',
      body: 'passkeyName',
      authenticated: true,
      pathParameters: { id: 'uuid' },
      success: { status: 200, description: 'The passkey, renamed', body: 'passkey' },
      errors: [...BODY_RULES, 'UNAUTHENTICATED', 'NOT_FOUND', 'CSRF_REJECTED'],
    },
    {
      method: 'delete',
      path: '/passkeys/{id}',
      summary: 'Remove one of the user\'s passkeys (never the only way in)',
      authenticated: true,
      pathParameters: { id: 'uuid' },
      success: { status: 204, description: 'Removed' },
      errors: ['UNAUTHENTICATED', 'NOT_FOUND', 'LAST_LOGIN_METHOD', 'CSRF_REJECTED'],
    },
  ];
}

/** Email verification and change of email (docs/guides/email.md). */
function emailRoutes(limited: AuthErrorCode[]): AuthRoute[] {
  return [
    {
      method: 'post',
      path: '/verify-email',
      summary: "Verify the user's email with a mailed token; the first proof reclaims the account (every other credential ends, ways in added before it are removed)",
      body: 'emailToken',
      success: { status: 204, description: 'Email verified' },
      errors: [...BODY_RULES, 'VERIFICATION_TOKEN_INVALID', 'CSRF_REJECTED', ...limited],
    },
    {
      method: 'post',
      path: '/send-verification',
      summary: 'Mail the signed-in user a new verification link (the older one stops working)',
      body: 'empty',
      authenticated: true,
      success: { status: 202, description: 'Accepted' },
      errors: [...BODY, 'UNAUTHENTICATED', 'EMAIL_ALREADY_VERIFIED', 'CSRF_REJECTED', ...limited],
    },
    {
      method: 'post',
      path: '/change-email',
      summary: 'Ask to change the signed-in user\'s email: a confirmation to the new address, a notice with a cancel link to the old (the same answer whether or not the new one is taken)',
      body: 'changeEmail',
      authenticated: true,
      success: { status: 202, description: 'Accepted' },
      errors: [...BODY, 'UNAUTHENTICATED', 'INVALID_CREDENTIALS', 'CSRF_REJECTED', ...limited],
    },
    {
      method: 'post',
      path: '/confirm-email',
      summary: "Switch the user's email to the new address with its mailed token; every other credential of the user ends",
      body: 'emailToken',
      success: { status: 204, description: 'Email changed' },
      errors: [...BODY_RULES, 'VERIFICATION_TOKEN_INVALID', 'EMAIL_ALREADY_REGISTERED', 'CSRF_REJECTED', ...limited],
    },
    {
      method: 'post',
      path: '/cancel-email-change',
      summary: "Cancel a pending change of the user's email with the token of the notice to the old address; every credential of the user ends",
      body: 'emailToken',
      success: { status: 204, description: 'Change cancelled' },
      errors: [...BODY_RULES, 'VERIFICATION_TOKEN_INVALID', 'CSRF_REJECTED', ...limited],
    },
  ];
}
