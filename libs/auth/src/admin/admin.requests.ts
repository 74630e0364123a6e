import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import type { AuthBodySchema } from '../http/auth-body-schema.js';

/** Longest role name the policy can hold. */
const MAX_ROLE_LENGTH = 64;
/** Longest reason an administrator gives for a deactivation. */
export const MAX_REASON_LENGTH = 500;

class RoleGrantRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_ROLE_LENGTH)
  role: string;
}

class DeactivationRequest {
  @IsOptional()
  @IsString()
  @MaxLength(MAX_REASON_LENGTH)
  reason?: string;
}

/** POST /admin/users/{id}/roles: `{ role }`, a role of the `authorization` policy. */
export const roleGrantBody: AuthBodySchema = { name: 'SvcRoleGrantRequest', secrets: [], build: () => RoleGrantRequest };

/** POST /admin/users/{id}/deactivate: `{ reason? }` (or no body), passed to `svc.user.deactivated`. */
export const deactivationBody: AuthBodySchema = { name: 'SvcDeactivationRequest', secrets: [], optional: true, build: () => DeactivationRequest };
