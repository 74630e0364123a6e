import type { AuthConfig } from '../config/auth-config.js';
import type { AuthErrorCode } from '../errors/error-codes.js';
import type { AuthRoute } from './auth-routes.js';

/** What every admin route can answer before its own work: no credential, no permission, an impersonation. */
const GUARDED: AuthErrorCode[] = ['UNAUTHENTICATED', 'PERMISSION_DENIED', 'IMPERSONATION_RESTRICTED'];
/** An admin route that takes a body (none, `{}`, or its own fields). */
const BODY_RULES: AuthErrorCode[] = ['VALIDATION_FAILED', 'MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'CSRF_REJECTED'];

/** The `admin` section's routes (docs/guides/administration.md); none without it. */
export function adminRoutes(config: AuthConfig): AuthRoute[] {
  if (!config.admin) return [];
  const credentialBody = config.credential === 'jwt' ? 'token' : 'user';
  const user = { id: 'uuid' } as const;
  return [
    {
      method: 'get',
      path: '/admin/users',
      summary: 'Users newest first (users:read): `?query=` a prefix of the email, `?limit=` 1..100 (default 20), `?cursor=` the previous page\'s nextCursor',
      authenticated: true,
      permissions: ['users:read'],
      success: { status: 200, description: '{ users: [user body + isActive, createdAt], nextCursor }' },
      errors: [...GUARDED, 'VALIDATION_FAILED'],
    },
    {
      method: 'get',
      path: '/admin/users/{id}',
      summary: "One user's details (users:read): loginMethods, mfa and the number of live sessions beside the summary",
      authenticated: true,
      permissions: ['users:read'],
      pathParameters: user,
      success: { status: 200, description: 'user body + isActive, createdAt, loginMethods, mfa, sessions' },
      errors: [...GUARDED, 'NOT_FOUND'],
    },
    {
      method: 'post',
      path: '/admin/users/{id}/roles',
      summary: 'Grant a role of the policy (users:roles), `{ role }`; a role held already changes nothing',
      authenticated: true,
      permissions: ['users:roles'],
      pathParameters: user,
      success: { status: 204, description: 'Granted' },
      errors: [...GUARDED, ...BODY_RULES, 'ROLE_UNKNOWN', 'NOT_FOUND'],
    },
    {
      method: 'delete',
      path: '/admin/users/{id}/roles/{role}',
      summary: 'Revoke a role (users:roles); never the last active holder of users:roles',
      authenticated: true,
      permissions: ['users:roles'],
      pathParameters: { ...user, role: Object.keys(config.authorization?.roles ?? {}) },
      success: { status: 204, description: 'Revoked' },
      errors: [...GUARDED, 'CSRF_REJECTED', 'NOT_FOUND', 'LAST_ADMIN'],
    },
    {
      method: 'post',
      path: '/admin/users/{id}/deactivate',
      summary: 'Deactivate the user (users:ban), `{ reason? }`: every credential refused at its next request, everywhere',
      authenticated: true,
      permissions: ['users:ban'],
      pathParameters: user,
      success: { status: 204, description: 'Deactivated' },
      errors: [...GUARDED, ...BODY_RULES, 'NOT_FOUND', 'LAST_ADMIN'],
    },
    ...(['activate', 'revoke-sessions'] as const).map(
      (action): AuthRoute => ({
        method: 'post',
        path: `/admin/users/{id}/${action}`,
        summary: action === 'activate' ? 'Activate the user again (users:ban)' : 'End every credential of the user (users:ban)',
        body: 'empty',
        authenticated: true,
        permissions: ['users:ban'],
        pathParameters: user,
        success: { status: 204, description: action === 'activate' ? 'Activated' : 'Every credential ended' },
        errors: [...GUARDED, ...BODY_RULES, 'NOT_FOUND'],
      }),
    ),
    {
      method: 'post',
      path: '/admin/users/{id}/password-reset',
      summary: 'Send the user the message forgot-password sends (users:update)',
      body: 'empty',
      authenticated: true,
      permissions: ['users:update'],
      pathParameters: user,
      success: { status: 202, description: 'Accepted' },
      errors: [...GUARDED, ...BODY_RULES, 'NOT_FOUND'],
    },
    {
      method: 'delete',
      path: '/admin/users/{id}',
      summary: 'Delete the user and every row of theirs (users:delete)',
      authenticated: true,
      permissions: ['users:delete'],
      pathParameters: user,
      success: { status: 204, description: 'Deleted' },
      errors: [...GUARDED, 'CSRF_REJECTED', 'NOT_FOUND', 'LAST_ADMIN'],
    },
    {
      method: 'post',
      path: '/admin/users/{id}/impersonate',
      summary: "The user's credential as their login gives it, marked impersonatedBy, for an hour at most (users:impersonate)",
      body: 'empty',
      authenticated: true,
      permissions: ['users:impersonate'],
      pathParameters: user,
      success: { status: 200, description: 'The user\'s credential', body: credentialBody },
      errors: [...GUARDED, ...BODY_RULES, 'USER_INACTIVE', 'NOT_FOUND'],
    },
    {
      method: 'post',
      path: '/admin/impersonation/stop',
      summary: 'End the impersonated credential presented',
      body: 'empty',
      authenticated: true,
      success: { status: 204, description: 'Ended, cookie cleared' },
      errors: ['UNAUTHENTICATED', ...BODY_RULES, 'NOT_IMPERSONATING'],
    },
  ];
}
