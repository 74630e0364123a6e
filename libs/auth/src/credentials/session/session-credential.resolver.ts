import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AUTH_CONFIG } from '../../config/auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { AuthError } from '../../errors/auth.error.js';
import { copyOfPrincipal, type CredentialResolver, type Principal, principalOfCredential } from '../credential-resolver.js';
import { PRINCIPAL_CACHE } from '../../principal-cache/principal-cache.tokens.js';
import type { PrincipalCache } from '../../principal-cache/principal-cache.js';
import { hashToken } from '../../crypto/opaque-token.js';
import { assertSameOrigin } from '../../http/cross-site-check.js';
import { UnitOfWork } from '../../persistence/unit-of-work.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import { SessionCookie } from './session-cookie.js';
import { SessionStore } from './session-store.js';

/**
 * The session cookie names a live session of an active user, or 401 (docs/decisions/0007-sessions.md). With the
 * principal cache on, a session resolved lately is served from it, by the hash of its token.
 */
@Injectable()
export class SessionCredentialResolver implements CredentialResolver {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly sessions: SessionStore,
    private readonly cookie: SessionCookie,
    private readonly serializer: UserSerializer,
    @Inject(PRINCIPAL_CACHE) private readonly cache: PrincipalCache<Principal>,
  ) {}

  async resolve(request: Request): Promise<Principal> {
    const token = this.cookie.read(request);
    if (!token) throw new AuthError('UNAUTHENTICATED');
    // A cookie authenticates this request: refuse it from another origin (docs/decisions/0023-cross-site-requests.md).
    assertSameOrigin(request, this.config);
    const tokenHash = hashToken(token);
    const cached = this.cache.get(tokenHash);
    if (cached !== undefined) return copyOfPrincipal(cached);
    const ticket = this.cache.ticket();
    const found = await this.unitOfWork.autocommit(async (manager) => {
      const row = await this.sessions.findWithUser(manager, tokenHash);
      if (row && !this.sessions.isExpired(row.session) && row.user.isActive) await this.sessions.touch(manager, row.session);
      return row;
    });
    if (!found || this.sessions.isExpired(found.session) || !found.user.isActive) throw new AuthError('UNAUTHENTICATED');
    const principal = principalOfCredential(found.user, this.serializer.principalBody(found.user), { sessionId: found.session.id, impersonatedBy: found.session.impersonatedBy, authTime: found.session.authTime });
    // A cached principal is shared: this request gets a copy of it too.
    return this.cache.fill(ticket, tokenHash, found.user.id, principal, this.sessions.cacheableUntil(found.session)) ? copyOfPrincipal(principal) : principal;
  }

  async resolveFromCookie(request: Request): Promise<Principal | null> {
    try {
      return await this.resolve(request);
    } catch (error) {
      if (error instanceof AuthError && error.code === 'UNAUTHENTICATED') return null;
      throw error;
    }
  }
}
