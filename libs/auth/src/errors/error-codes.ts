import { HttpStatus } from '@nestjs/common';

/**
 * Every error code the library answers with, its HTTP status and default message: the one place
 * where domain errors meet HTTP (docs/decisions/0004-errors.md).
 */
export const AUTH_ERRORS = {
  VALIDATION_FAILED: [HttpStatus.BAD_REQUEST, 'Request body is invalid'],
  MALFORMED_JSON: [HttpStatus.BAD_REQUEST, 'Request body is not valid JSON'],
  PAYLOAD_TOO_LARGE: [HttpStatus.PAYLOAD_TOO_LARGE, 'Request body is too large'],
  UNSUPPORTED_MEDIA_TYPE: [HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'Request body must be application/json'],
  INVALID_CREDENTIALS: [HttpStatus.UNAUTHORIZED, 'Invalid credentials'],
  USER_INACTIVE: [HttpStatus.FORBIDDEN, 'User is inactive'],
  UNAUTHENTICATED: [HttpStatus.UNAUTHORIZED, 'Authentication required'],
  EMAIL_ALREADY_REGISTERED: [HttpStatus.CONFLICT, 'Email is already registered'],
  REFRESH_TOKEN_INVALID: [HttpStatus.UNAUTHORIZED, 'Refresh token is invalid'],
  RESET_TOKEN_INVALID: [HttpStatus.BAD_REQUEST, 'Reset token is invalid or expired'],
  /** change-password: the signed-in user gave a wrong current password (not 401: the session is fine). */
  CURRENT_PASSWORD_INVALID: [HttpStatus.FORBIDDEN, 'Current password is wrong'],
  /** verify-email or confirm-email with an unknown, expired, used or superseded token. */
  VERIFICATION_TOKEN_INVALID: [HttpStatus.BAD_REQUEST, 'Verification token is invalid or expired'],
  /** send-verification for a user whose email is verified already. */
  EMAIL_ALREADY_VERIFIED: [HttpStatus.CONFLICT, 'Email is already verified'],
  /** The right password, but `emailVerification.required` and the email is not verified yet. */
  EMAIL_NOT_VERIFIED: [HttpStatus.FORBIDDEN, 'Verify your email before you log in'],
  /** Two-step login: a wrong authenticator code (400 on the settings routes; 401 at /mfa/verify) or recovery code. */
  MFA_CODE_INVALID: [HttpStatus.BAD_REQUEST, 'Code is invalid'],
  /** /mfa/verify without a challenge cookie, or with an expired, forged or spent one, or for a user who can no longer sign in. */
  MFA_CHALLENGE_INVALID: [HttpStatus.UNAUTHORIZED, 'Two-step login challenge is invalid or expired; log in again'],
  /** Setup or enable for a user whose two-step login is on already. */
  MFA_ALREADY_ENABLED: [HttpStatus.CONFLICT, 'Two-step login is already on'],
  /** Disable or regenerate for a user whose two-step login is off. */
  MFA_NOT_ENABLED: [HttpStatus.CONFLICT, 'Two-step login is not on'],
  /** Enable without a pending setup. */
  MFA_SETUP_REQUIRED: [HttpStatus.CONFLICT, 'Set up two-step login first'],
  HOOK_ABORTED: [HttpStatus.FORBIDDEN, 'Operation refused'],
  HOOK_FAILED: [HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error'],
  RATE_LIMITED: [HttpStatus.TOO_MANY_REQUESTS, 'Too many requests'],
  OAUTH_PROVIDER_UNKNOWN: [HttpStatus.NOT_FOUND, 'Unknown OAuth provider'],
  OAUTH_STATE_INVALID: [HttpStatus.BAD_REQUEST, 'OAuth state is invalid'],
  OAUTH_PROVIDER_ERROR: [HttpStatus.BAD_REQUEST, 'OAuth provider returned an error'],
  OAUTH_CODE_REJECTED: [HttpStatus.UNAUTHORIZED, 'OAuth authorization code was rejected'],
  OAUTH_PROVIDER_UNAVAILABLE: [HttpStatus.BAD_GATEWAY, 'OAuth provider is unavailable'],
  OIDC_ID_TOKEN_INVALID: [HttpStatus.UNAUTHORIZED, 'ID token is invalid'],
  OAUTH_EMAIL_MISSING: [HttpStatus.BAD_REQUEST, 'OAuth identity has no email'],
  OAUTH_EMAIL_UNVERIFIED: [HttpStatus.BAD_REQUEST, 'OAuth identity email is not verified'],
  INVALID_REDIRECT: [HttpStatus.BAD_REQUEST, 'Redirect must be a same-origin relative path'],
  OAUTH_ACCOUNT_NOT_LINKED: [HttpStatus.CONFLICT, 'Email belongs to an account not linked to this identity'],
  OAUTH_ACCOUNT_ORPHANED: [HttpStatus.UNAUTHORIZED, 'OAuth account has no user'],
  /** A link flow reached an identity that another user has linked. */
  OAUTH_ACCOUNT_LINKED_ELSEWHERE: [HttpStatus.CONFLICT, 'This identity is linked to another account'],
  /** A link flow reached a second identity at a provider where the user has one linked already. */
  OAUTH_PROVIDER_ALREADY_LINKED: [HttpStatus.CONFLICT, 'Another identity at this provider is linked to your account'],
  /** Unlinking would leave the user no way to sign in. */
  LAST_LOGIN_METHOD: [HttpStatus.CONFLICT, 'This is your only way to sign in'],
  /**
   * A passkey answer that proves nothing: bad signature, unknown credential, wrong origin or rp id,
   * a challenge missing, expired or used already, a counter that did not go forward.
   */
  PASSKEY_INVALID: [HttpStatus.UNAUTHORIZED, 'Passkey could not be verified'],
  /** An administrator acting as the user reached a route that changes how the account is reached, or an /admin route. */
  IMPERSONATION_RESTRICTED: [HttpStatus.FORBIDDEN, 'Not allowed while impersonating a user'],
  /** A route that needs a recent sign-in (fresh sign-in), with an older one; the body lists the `methods` that re-authenticate. */
  REAUTH_REQUIRED: [HttpStatus.FORBIDDEN, 'Confirm it is you: sign in again'],
  /** A provider re-authentication's callback: an identity not linked to the signed-in user, or (OIDC) an `auth_time` older than the request. */
  OAUTH_REAUTH_REFUSED: [HttpStatus.FORBIDDEN, 'The provider did not confirm it is you'],
  /** POST /admin/impersonation/stop with a credential that is the user's own. */
  NOT_IMPERSONATING: [HttpStatus.CONFLICT, 'This credential is not an impersonation'],
  CSRF_REJECTED: [HttpStatus.FORBIDDEN, 'Cross-site request refused'],
  /** `@Roles` / `@Permissions`: a signed-in user without the roles or permissions the route needs. */
  PERMISSION_DENIED: [HttpStatus.FORBIDDEN, 'Permission denied'],
  /** A grant of a role the `authorization` policy does not define. */
  ROLE_UNKNOWN: [HttpStatus.BAD_REQUEST, 'Unknown role'],
  /** Revoking (deactivating, deleting) would leave no active user holding `users:roles`. */
  LAST_ADMIN: [HttpStatus.CONFLICT, 'No user would be left to manage roles'],
  /** API keys: a scope the user does not hold. */
  API_KEY_SCOPE_INVALID: [HttpStatus.BAD_REQUEST, 'Scopes must be among your permissions'],
  /** API keys: the user holds `apiKeys.maxPerUser` live keys already. */
  API_KEY_LIMIT: [HttpStatus.CONFLICT, 'Too many API keys; revoke one first'],
  /** An API key presented to a library route other than `/me`. */
  API_KEY_NOT_ALLOWED: [HttpStatus.FORBIDDEN, 'API keys are not accepted on this route'],
  /** POST /organizations with a slug another organization has. */
  ORGANIZATION_SLUG_TAKEN: [HttpStatus.CONFLICT, 'This slug is taken'],
  /** An invitation token that is unknown, expired, accepted already or revoked. */
  INVITATION_INVALID: [HttpStatus.BAD_REQUEST, 'Invitation is invalid or expired'],
  /** An invitation accepted by a signed-in user whose verified email is not the invited one (the invitation stays usable). */
  INVITATION_EMAIL_MISMATCH: [HttpStatus.FORBIDDEN, 'This invitation is for another email address'],
  /** A change of role or a removal would leave the organization without a member holding its creator role. */
  LAST_OWNER: [HttpStatus.CONFLICT, 'No member would be left holding the owner role'],
  /** `@OrgRoles` / `@OrgPermissions`: the credential has no active organization (none chosen, or no longer a member). */
  ORGANIZATION_REQUIRED: [HttpStatus.FORBIDDEN, 'Choose an organization first'],
  /** An application's own guard refused a request to a library route. */
  FORBIDDEN: [HttpStatus.FORBIDDEN, 'Request refused'],
  SERVICE_UNAVAILABLE: [HttpStatus.SERVICE_UNAVAILABLE, 'Service unavailable'],
  NOT_FOUND: [HttpStatus.NOT_FOUND, 'No such route'],
  /** An unexpected failure on a library route; the detail goes to the log only. */
  INTERNAL_ERROR: [HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error'],
} as const satisfies Record<string, readonly [HttpStatus, string]>;

export type AuthErrorCode = keyof typeof AUTH_ERRORS;
