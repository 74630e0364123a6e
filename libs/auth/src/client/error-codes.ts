/**
 * Every `code` a svc server answers with (docs/reference/error-codes.md), as data the client can
 * hold without importing the server: the browser bundle stays free of Nest. A unit spec checks
 * at compile time that this list and the server's `AuthErrorCode` agree.
 */
export const SERVER_ERROR_CODES = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INVALID_CREDENTIALS',
  'USER_INACTIVE',
  'UNAUTHENTICATED',
  'EMAIL_ALREADY_REGISTERED',
  'REFRESH_TOKEN_INVALID',
  'RESET_TOKEN_INVALID',
  'CURRENT_PASSWORD_INVALID',
  'VERIFICATION_TOKEN_INVALID',
  'EMAIL_ALREADY_VERIFIED',
  'EMAIL_NOT_VERIFIED',
  'MFA_CODE_INVALID',
  'MFA_CHALLENGE_INVALID',
  'MFA_ALREADY_ENABLED',
  'MFA_NOT_ENABLED',
  'MFA_SETUP_REQUIRED',
  'HOOK_ABORTED',
  'HOOK_FAILED',
  'RATE_LIMITED',
  'OAUTH_PROVIDER_UNKNOWN',
  'OAUTH_STATE_INVALID',
  'OAUTH_PROVIDER_ERROR',
  'OAUTH_CODE_REJECTED',
  'OAUTH_PROVIDER_UNAVAILABLE',
  'OIDC_ID_TOKEN_INVALID',
  'OAUTH_EMAIL_MISSING',
  'OAUTH_EMAIL_UNVERIFIED',
  'INVALID_REDIRECT',
  'OAUTH_ACCOUNT_NOT_LINKED',
  'OAUTH_ACCOUNT_ORPHANED',
  'OAUTH_ACCOUNT_LINKED_ELSEWHERE',
  'OAUTH_PROVIDER_ALREADY_LINKED',
  'LAST_LOGIN_METHOD',
  'PASSKEY_INVALID',
  'IMPERSONATION_RESTRICTED',
  'NOT_IMPERSONATING',
  'CSRF_REJECTED',
  'PERMISSION_DENIED',
  'ROLE_UNKNOWN',
  'LAST_ADMIN',
  'FORBIDDEN',
  'SERVICE_UNAVAILABLE',
  'NOT_FOUND',
  'INTERNAL_ERROR',
  'API_KEY_SCOPE_INVALID',
  'API_KEY_LIMIT',
  'API_KEY_NOT_ALLOWED',
  'OAUTH_REAUTH_REFUSED',
  'ORGANIZATION_SLUG_TAKEN',
  'INVITATION_INVALID',
  'INVITATION_EMAIL_MISMATCH',
  'LAST_OWNER',
  'ORGANIZATION_REQUIRED',
  /** A route that needs a recent sign-in, reached with an old one: 403 with `methods`. */
  'REAUTH_REQUIRED',
] as const;

/**
 * Codes the client itself gives when no svc answer exists: the request never got an answer
 * (`NETWORK_ERROR`), or the answer was not a svc body (`UNEXPECTED_RESPONSE`: a proxy's HTML page,
 * a code this client does not know).
 */
export const CLIENT_ERROR_CODES = ['NETWORK_ERROR', 'UNEXPECTED_RESPONSE'] as const;

export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];
export type SvcErrorCode = ServerErrorCode | ClientErrorCode;

const KNOWN: ReadonlySet<string> = new Set<string>(SERVER_ERROR_CODES);

export function isServerErrorCode(code: unknown): code is ServerErrorCode {
  return typeof code === 'string' && KNOWN.has(code);
}
