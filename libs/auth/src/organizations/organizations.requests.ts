import { IsEmail, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import type { AuthBodySchema } from '../http/auth-body-schema.js';
import { EmailField } from '../users/email-field.js';

/** Longest organization name. */
export const MAX_NAME_LENGTH = 100;
/** A slug: lower-case letters and digits, single hyphens between them, 2..64 characters (a URL path segment as it is). */
export const SLUG = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,63}$/;
/** Longest role name a policy can hold. */
const MAX_ROLE_LENGTH = 64;

class OrganizationCreateRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_NAME_LENGTH)
  name: string;

  @IsString()
  @Matches(SLUG, { message: 'slug must be 2 to 64 lower-case letters, digits and single hyphens, starting and ending with a letter or digit' })
  slug: string;
}

class OrganizationRenameRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_NAME_LENGTH)
  name: string;
}

class InvitationRequest {
  @EmailField()
  @IsEmail({}, { message: 'email must be an email address' })
  email: string;

  @IsString()
  @MinLength(1)
  @MaxLength(MAX_ROLE_LENGTH)
  role: string;
}

class InvitationAcceptRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  token: string;
}

class MemberRoleRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_ROLE_LENGTH)
  role: string;
}

/** POST /organizations: `{ name, slug }`. */
export const organizationCreateBody: AuthBodySchema = { name: 'SvcOrganizationCreateRequest', secrets: [], build: () => OrganizationCreateRequest };
/** PATCH /organizations/{id}: `{ name }`. */
export const organizationRenameBody: AuthBodySchema = { name: 'SvcOrganizationRenameRequest', secrets: [], build: () => OrganizationRenameRequest };
/** POST /organizations/{id}/invitations: `{ email, role }`. */
export const invitationBody: AuthBodySchema = { name: 'SvcInvitationRequest', secrets: [], build: () => InvitationRequest };
/** POST /organizations/invitations/accept: `{ token }`, the mailed token. */
export const invitationAcceptBody: AuthBodySchema = { name: 'SvcInvitationAcceptRequest', secrets: ['token'], build: () => InvitationAcceptRequest };
/** PATCH /organizations/{id}/members/{userId}: `{ role }`. */
export const memberRoleBody: AuthBodySchema = { name: 'SvcMemberRoleRequest', secrets: [], build: () => MemberRoleRequest };
