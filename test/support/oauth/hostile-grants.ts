import { createHash, randomBytes } from 'node:crypto';
import type { AuthorizationRecord } from './hostile-script.js';

const token = () => randomBytes(32).toString('base64url');

export type Redemption = { ok: true; request: AuthorizationRecord } | { ok: false; error: string; description: string };

/**
 * The hostile provider's honest bookkeeping: codes are single use and bound to their redirect_uri
 * and PKCE challenge, tokens are opaque random strings. Lies come only from the script.
 */
export class HostileGrants {
  private readonly codes = new Map<string, { request: AuthorizationRecord; used: boolean }>();
  private readonly accessTokens = new Set<string>();
  private readonly refreshTokens = new Set<string>();

  issueCode(query: Record<string, string>): AuthorizationRecord {
    const request = { query, code: token() };
    this.codes.set(request.code, { request, used: false });
    return request;
  }

  /** RFC 6749 §4.1.3 and RFC 7636 §4.6; `reusable`: a used code is accepted again (a lie of the script). */
  redeem(params: Record<string, string>, reusable = false): Redemption {
    const pending = this.codes.get(params.code ?? '');
    if (!pending || (pending.used && !reusable)) return { ok: false, error: 'invalid_grant', description: 'unknown or already used code' };
    pending.used = true;
    const { query } = pending.request;
    if (params.redirect_uri !== query.redirect_uri) return { ok: false, error: 'invalid_grant', description: 'redirect_uri mismatch' };
    const challenge = query.code_challenge;
    const verifier = params.code_verifier;
    if (challenge !== undefined || verifier !== undefined) {
      const computed = verifier === undefined ? undefined : createHash('sha256').update(verifier).digest('base64url');
      if (computed === undefined || computed !== challenge) return { ok: false, error: 'invalid_grant', description: 'PKCE verification failed' };
    }
    return { ok: true, request: pending.request };
  }

  /** Consumes a refresh token (rotation); false when it is unknown. */
  useRefreshToken(refreshToken: string | undefined): boolean {
    return refreshToken !== undefined && this.refreshTokens.delete(refreshToken);
  }

  issueTokens(): { access_token: string; refresh_token: string } {
    const issued = { access_token: token(), refresh_token: token() };
    this.accessTokens.add(issued.access_token);
    this.refreshTokens.add(issued.refresh_token);
    return issued;
  }

  isAccessToken(accessToken: string | undefined): boolean {
    return accessToken !== undefined && this.accessTokens.has(accessToken);
  }
}
