import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** Longest role name the policy can hold. */
const MAX_ROLE_LENGTH = 64;
/** Longest reason an administrator gives for a deactivation. */
export const MAX_REASON_LENGTH = 500;

/** POST /admin/users/{id}/roles: `{ role }`, a role of the `authorization` policy. */
export class RoleGrantRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_ROLE_LENGTH)
  role: string;
}

/** POST /admin/users/{id}/deactivate: `{ reason? }`, passed to `svc.user.deactivated`. */
export class DeactivationRequest {
  @IsOptional()
  @IsString()
  @MaxLength(MAX_REASON_LENGTH)
  reason?: string;
}
