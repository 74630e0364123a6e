import { hash } from 'node:crypto';
import type { SvcJwtUser } from './svc-jwt.options.js';

/** About 300 bytes an entry (a 43-character digest and a small user): some 3 MB at most. */
const MAX_ENTRIES = 10_000;

/**
 * Tokens this service verified lately, so that a client presenting the same token on every request
 * costs one SHA-256 and a map lookup instead of a signature verification. Keyed by the token's
 * SHA-256, never the token. An entry holds until the token's `exp`, and no longer than the key set
 * is cached (`jwksCacheSeconds`): a key svc retires stops admitting its tokens here as soon as it
 * would in jose's cache. Bounded: the least recently used goes first.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, { user: Readonly<SvcJwtUser>; untilMs: number }>();

  constructor(private readonly keepMs: number) {}

  static digestOf(token: string): string {
    return hash('sha256', token, 'base64url');
  }

  /** A copy of the user of a token verified before, if its entry still holds at `nowMs`. */
  userAt(digest: string, nowMs: number): SvcJwtUser | undefined {
    const entry = this.entries.get(digest);
    if (entry === undefined) return undefined;
    this.entries.delete(digest);
    if (entry.untilMs <= nowMs) return undefined;
    // Most recently used last: the Map's order is the eviction order.
    this.entries.set(digest, entry);
    return copyOf(entry.user);
  }

  /** `expSeconds`: the verified token's `exp` (RFC 7519 §4.1.4). */
  remember(digest: string, user: SvcJwtUser, expSeconds: number, nowMs: number): void {
    const untilMs = Math.min(expSeconds * 1000, nowMs + this.keepMs);
    if (untilMs <= nowMs) return;
    this.entries.delete(digest);
    this.entries.set(digest, { user: Object.freeze(copyOf(user)), untilMs });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** Each request gets its own `request.user`: what one handler changes, no other request sees. */
function copyOf(user: Readonly<SvcJwtUser>): SvcJwtUser {
  const copy: SvcJwtUser = { id: user.id, roles: [...user.roles], permissions: [...user.permissions] };
  if (user.scopes) copy.scopes = [...user.scopes];
  return copy;
}
