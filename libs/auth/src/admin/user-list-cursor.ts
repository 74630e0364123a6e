import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../crypto/opaque-token.js';
import { AuthError } from '../errors/auth.error.js';
import { isUuid } from '../persistence/uuid.js';

/** Where a page of the user list ends: the last user's `created_at` as the database wrote it, and its id. */
export interface UserListPosition {
  createdAt: string;
  id: string;
}

/** Longest `created_at` text a cursor carries (PostgreSQL's `timestamptz::text` is 32 characters at most). */
const MAX_CREATED_AT_LENGTH = 40;

/**
 * The user list's opaque cursor (docs/guides/administration.md): the position after which the
 * next page starts, bound to the query it was issued for and signed with HMAC-SHA256, so that a
 * cursor svc did not issue is refused (400 `VALIDATION_FAILED`) before it reaches a statement.
 */
export class UserListCursor {
  constructor(private readonly key: string) {}

  issue(position: UserListPosition, query: string): string {
    const payload = Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
    return `${payload}.${this.mac(payload, query)}`;
  }

  /** The position a cursor names, checked in constant time against its signature; 400 for anything else. */
  read(cursor: string, query: string): UserListPosition {
    const [payload, mac, ...rest] = cursor.split('.');
    // OWASP ASVS 5.0 V11.5.1: a client-held value is trusted only with a valid MAC.
    if (rest.length > 0 || !payload || !mac || !constantTimeEqual(mac, this.mac(payload, query))) throw invalidCursor();
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor();
    }
    if (!Array.isArray(decoded) || decoded.length !== 2) throw invalidCursor();
    const [createdAt, id] = decoded as unknown[];
    if (typeof createdAt !== 'string' || createdAt.length === 0 || createdAt.length > MAX_CREATED_AT_LENGTH || !isUuid(id)) throw invalidCursor();
    return { createdAt, id };
  }

  private mac(payload: string, query: string): string {
    return createHmac('sha256', this.key).update(`${query}\u0000${payload}`).digest('base64url');
  }
}

function invalidCursor(): AuthError {
  return new AuthError('VALIDATION_FAILED', { message: ['cursor is not one this list issued'] });
}
