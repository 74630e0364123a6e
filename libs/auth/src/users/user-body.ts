import type { SvcUser } from '../entities/user.entity.js';

/** What svc adds to every user body when the feature is on: `emailVerified` with `emailVerification`, `mfa` with `mfa`. */
export interface UserBodyFeatures {
  /** With `emailVerification`: whether the user's email is verified. */
  emailVerified?: boolean;
  /** With `mfa`: the user's second factors. */
  mfa?: { totp: boolean };
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
 * user's email is verified, and with `mfa` (two-step login on) `mfa: { totp }`, from the user's row.
 */
export function createUserSerializer(returnedColumns: readonly string[], options: { emailVerified?: boolean; mfa?: boolean } = {}): (user: SvcUser) => UserBody {
  const added = [...(options.emailVerified ? ['emailVerified'] : []), ...(options.mfa ? ['mfa'] : [])];
  const fields = ['id', 'email', ...returnedColumns.filter((name) => name !== 'id' && name !== 'email' && !added.includes(name))];
  return (user) => {
    const body: Record<string, unknown> = {};
    for (const field of fields) body[field] = (user as unknown as Record<string, unknown>)[field] ?? null;
    if (options.emailVerified) body.emailVerified = user.emailVerifiedAt !== null && user.emailVerifiedAt !== undefined;
    if (options.mfa) body.mfa = { totp: user.mfaTotpEnabled === true };
    return body as UserBody;
  };
}
