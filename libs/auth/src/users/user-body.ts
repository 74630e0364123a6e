import type { SvcUser } from '../entities/user.entity.js';
import { rolesOf } from './user-roles.js';

/** What svc adds to every user body when the feature is on: `emailVerified` with `emailVerification`, `mfa` with `mfa`, `roles` with `authorization`. */
export interface UserBodyFeatures {
  /** With `authorization`: the roles the user holds, sorted (docs/guides/roles-and-permissions.md). */
  roles?: string[];
  /** With `authorization`, on `request.user` and `/me` only: the union of the roles' permissions, sorted, as the policy writes them. */
  permissions?: string[];
  /** With `emailVerification`: whether the user's email is verified. */
  emailVerified?: boolean;
  /** With `mfa`: the user's second factors. */
  mfa?: { totp: boolean };
  /** On `request.user` and `/me` of a request an API key authenticated: the key's id and scopes (`permissions` is then the owner's within them). */
  apiKey?: { id: string; scopes: string[] };
  /** With `organizations`, on `request.user` and `/me` only: the credential's active organization, or null (docs/guides/organizations.md). */
  organization?: { id: string; role: string; permissions: string[] } | null;
}

/** The user as every response and observer sees it: id, email, the `@SvcReturned` columns and the features' fields. */
export type UserBody = { id: string; email: string } & UserBodyFeatures & Record<string, unknown>;

/**
 * The user body of an application's entity, typed: `UserBodyOf<AppUser, 'displayName' | 'plan'>`
 * names the columns tagged `@SvcReturned()` (TypeScript cannot read decorators, so they are named
 * once here, next to the entity). Columns not named are not in the type, as they are not in the
 * body; `emailVerified` and `mfa` are, present when their feature is on.
 */
export type UserBodyOf<U extends SvcUser, Returned extends Exclude<keyof U, keyof SvcUser> = never> = Pick<U, 'id' | 'email' | Returned> & UserBodyFeatures;

/**
 * Builds the serializer once: it copies exactly the returned columns, nothing else (docs/guides/application.md), with `emailVerified` (email verification on) whether the
 * user's email is verified, with `mfa` (two-step login on) `mfa: { totp }`, and with `roles`
 * (authorization on) the roles loaded with the row (signup, login and the credential's resolution load them), from the user's row.
 */
export function createUserSerializer(returnedColumns: readonly string[], options: { emailVerified?: boolean; mfa?: boolean; roles?: boolean } = {}): (user: SvcUser) => UserBody {
  const added = [...(options.emailVerified ? ['emailVerified'] : []), ...(options.mfa ? ['mfa'] : []), ...(options.roles ? ['roles', 'permissions'] : [])];
  const fields = ['id', 'email', ...returnedColumns.filter((name) => name !== 'id' && name !== 'email' && !added.includes(name))];
  return (user) => {
    const body: Record<string, unknown> = {};
    for (const field of fields) body[field] = (user as unknown as Record<string, unknown>)[field] ?? null;
    if (options.emailVerified) body.emailVerified = user.emailVerifiedAt !== null && user.emailVerifiedAt !== undefined;
    if (options.mfa) body.mfa = { totp: user.mfaTotpEnabled === true };
    // Only roles loaded with the row: a body never claims the user holds none when nobody looked.
    const roles = options.roles ? rolesOf(user) : undefined;
    if (roles) body.roles = [...roles];
    return body as UserBody;
  };
}
