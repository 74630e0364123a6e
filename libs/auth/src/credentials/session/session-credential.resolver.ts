import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AUTH_CONFIG } from '../../auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { AuthError } from '../../errors/auth.error.js';
import type { CredentialResolver, Principal } from '../credential-resolver.js';
import { assertSameOrigin } from '../../http/cross-site-check.js';
import { UnitOfWork } from '../../persistence/unit-of-work.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import { SessionCookie } from './session-cookie.js';
import { SessionStore } from './session-store.js';

/** The session cookie names a live session of an active user, or 401 (README, "Sessions"). */
@Injectable()
export class SessionCredentialResolver implements CredentialResolver {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly sessions: SessionStore,
    private readonly cookie: SessionCookie,
    private readonly serializer: UserSerializer,
  ) {}

  async resolve(request: Request): Promise<Principal> {
    const token = this.cookie.read(request);
    if (!token) throw new AuthError('UNAUTHENTICATED');
    // A cookie authenticates this request: refuse it from another origin (README, "Cross-site requests").
    assertSameOrigin(request, this.config);
    const found = await this.unitOfWork.autocommit(async (manager) => {
      const row = await this.sessions.findWithUser(manager, token);
      if (row && !this.sessions.isExpired(row.session) && row.user.isActive) await this.sessions.touch(manager, row.session);
      return row;
    });
    if (!found || this.sessions.isExpired(found.session) || !found.user.isActive) throw new AuthError('UNAUTHENTICATED');
    return { user: found.user, body: this.serializer.serialize(found.user), sessionId: found.session.id };
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
