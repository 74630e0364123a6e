import type { SvcUser } from '../entities/user.entity.js';

/** The user as every response and observer sees it: id, email and the `@SvcReturned` columns. */
export type UserBody = { id: string; email: string } & Record<string, unknown>;

/** Builds the serializer once: it copies exactly the returned columns, nothing else (spec rule 5). */
export function createUserSerializer(returnedColumns: readonly string[]): (user: SvcUser) => UserBody {
  const fields = ['id', 'email', ...returnedColumns.filter((name) => name !== 'id' && name !== 'email')];
  return (user) => {
    const body: Record<string, unknown> = {};
    for (const field of fields) body[field] = (user as unknown as Record<string, unknown>)[field] ?? null;
    return body as UserBody;
  };
}
