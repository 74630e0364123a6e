/** Metadata keys of `@Roles` and `@Permissions` (read by the guard, the startup check and the OpenAPI document). */
export const REQUIRED_ROLES = 'svc:required-roles';
export const REQUIRED_PERMISSIONS = 'svc:required-permissions';
