import { isUuid } from '../persistence/uuid.js';

/** What an instance tells the others: every principal of a user goes, or the one of a credential key (a refresh family id). */
export type Invalidation = { userId: string } | { key: string };

/** The wire form, short enough for any channel (PostgreSQL's NOTIFY payload is limited to 8000 bytes). */
export function encodeInvalidation(invalidation: Invalidation): string {
  return 'userId' in invalidation ? `u:${invalidation.userId}` : `k:${invalidation.key}`;
}

/** The invalidation of a message, or null for anything else (a message of another version, or not ours). */
export function decodeInvalidation(message: string): Invalidation | null {
  const id = message.slice(2);
  if (!isUuid(id)) return null;
  if (message.startsWith('u:')) return { userId: id };
  if (message.startsWith('k:')) return { key: id };
  return null;
}
