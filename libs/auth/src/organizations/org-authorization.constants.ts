/** Metadata keys of `@OrgRoles` and `@OrgPermissions` (read by the guard, the startup check and the OpenAPI document). */
export const REQUIRED_ORG_ROLES = 'svc:required-org-roles';
export const REQUIRED_ORG_PERMISSIONS = 'svc:required-org-permissions';
