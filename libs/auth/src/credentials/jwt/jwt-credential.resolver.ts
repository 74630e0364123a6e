import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthError } from '../../errors/auth.error.js';
import { copyOfPrincipal, type CredentialResolver, type Principal, principalOfCredential } from '../credential-resolver.js';
import { PRINCIPAL_CACHE } from '../../principal-cache/principal-cache.tokens.js';
import type { PrincipalCache } from '../../principal-cache/principal-cache.js';
import { UnitOfWork } from '../../persistence/unit-of-work.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import { authTimeOfClaims } from './access-token-claims.js';
import { AccessTokenVerifier } from './access-token.verifier.js';
import { RefreshCookie } from './refresh-cookie.js';
import { RefreshFamilyStore } from './refresh-family-store.js';
import { RefreshTokenStore } from './refresh-token-store.js';

/**
 * The `Authorization: Bearer` access token (RFC 6750 §2.1), verified, names an active user
 * whose family is not revoked; anything else is 401 with `WWW-Authenticate: Bearer`. A bearer
 * token is not sent by the browser on its own, so no cross-site check applies (docs/decisions/0023-cross-site-requests.md).
 */
@Injectable()
export class JwtCredentialResolver implements CredentialResolver {
  constructor(
    private readonly verifier: AccessTokenVerifier,
    private readonly unitOfWork: UnitOfWork,
    private readonly refreshTokens: RefreshTokenStore,
    private readonly families: RefreshFamilyStore,
    private readonly refreshCookie: RefreshCookie,
    private readonly serializer: UserSerializer,
    @Inject(PRINCIPAL_CACHE) private readonly cache: PrincipalCache<Principal>,
  ) {}

  async resolve(request: Request, response: Response): Promise<Principal> {
    const principal = await this.tryResolve(request);
    if (principal) return principal;
    // RFC 6750 §3: a 401 for a protected resource names the scheme it expects.
    response.setHeader('WWW-Authenticate', 'Bearer');
    throw new AuthError('UNAUTHENTICATED');
  }

  /** The principal, or null for a missing or refused token. Database errors still throw (503). */
  async tryResolve(request: Request): Promise<Principal | null> {
    const pending = this.verifier.claimsOf(request);
    const claims = pending instanceof Promise ? await pending : pending;
    if (!claims) return null;
    // With the principal cache on (docs/guides/principal-cache.md), a family resolved lately is served from it; its key is the family.
    // The token's own `auth_time`, never the cached one: only a token minted by the sign-in is fresh (docs/decisions/0028-fresh-sign-in.md).
    const authTime = authTimeOfClaims(claims);
    const cached = this.cache.get(claims.sid);
    if (cached !== undefined && cached.user.id === claims.sub) return { ...copyOfPrincipal(cached), authTime };
    const ticket = this.cache.ticket();
    // One query: the user and its live family, neither revoked nor past its end (docs/decisions/0012-access-tokens-jwt.md; ASVS 5.0 V7.4.1).
    const found = await this.unitOfWork.autocommit((manager) => this.families.findUserOfLiveFamily(manager, claims.sub, claims.sid));
    if (!found || !found.user.isActive) return null;
    const principal = principalOfCredential(found.user, this.serializer.principalBody(found.user), { familyId: claims.sid, impersonatedBy: claims.act?.sub, authTime });
    // A cached principal is shared: this request gets a copy of it too.
    return this.cache.fill(ticket, claims.sid, found.user.id, principal, found.familyEndsAt.getTime()) ? copyOfPrincipal(principal) : principal;
  }

  /** The user of the refresh cookie's family, if that token could still be used (unconsumed, unexpired, its family live and before its end). */
  async resolveFromCookie(request: Request): Promise<Principal | null> {
    const token = this.refreshCookie.read(request);
    if (!token) return null;
    const found = await this.unitOfWork.autocommit(async (manager) => {
      const row = await this.refreshTokens.findUsable(manager, token);
      const live = row && (await this.families.findUserOfLiveFamily(manager, row.userId, row.familyId));
      return live ? { user: live.user, familyId: row!.familyId } : null;
    });
    if (!found?.user.isActive) return null;
    // A refresh cookie proves no recent sign-in (docs/decisions/0028-fresh-sign-in.md).
    return { user: found.user, body: this.serializer.principalBody(found.user), familyId: found.familyId, authTime: null };
  }
}
