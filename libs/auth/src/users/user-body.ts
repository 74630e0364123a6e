import type { SvcUser } from '../entities/user.entity.js';

/** The user as every response and observer sees it: id, email and the `@SvcReturned` columns. */
export type UserBody = { id: string; email: string } & Record<string, unknown>;

/**
 * The user body of an application's entity, typed: `UserBodyOf<AppUser, 'displayName' | 'plan'>`
 * names the columns tagged `@SvcReturned()` (TypeScript cannot read decorators, so they are named
 * once here, next to the entity). Columns not named are not in the type, as they are not in the body.
 */
export type UserBodyOf<U extends SvcUser, Returned extends Exclude<keyof U, keyof SvcUser> = never> = Pick<U, 'id' | 'email' | Returned>;

/**
 * Builds the serializer once: it copies exactly the returned columns, nothing else (README, "1. Your
 * user entity and its migration"), with `emailVerified` (email verification on) whether the
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
