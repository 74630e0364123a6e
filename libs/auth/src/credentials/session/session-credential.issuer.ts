import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import { AUTH_CONFIG } from '../../config/auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import type { SvcUser } from '../../entities/user.entity.js';
import type { UserBody } from '../../users/user-body.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import type { CredentialIssuer, Impersonation } from '../credential-issuer.js';
import { SessionCookie } from './session-cookie.js';
import { type IssuedSession, SessionStore } from './session-store.js';

/** Issues a session row and its cookie; the JSON answer is the user body. */
@Injectable()
export class SessionCredentialIssuer implements CredentialIssuer<IssuedSession> {
  readonly issuedAtSignup: boolean;

  constructor(
    @Inject(AUTH_CONFIG) config: AuthConfig,
    private readonly sessions: SessionStore,
    private readonly cookie: SessionCookie,
    private readonly serializer: UserSerializer,
  ) {
    this.issuedAtSignup = config.session.loginOnSignup;
  }

  /** An impersonation keeps the session the request presented: it is the administrator's own. */
  issue(manager: EntityManager, user: SvcUser, request: Request, impersonation?: Impersonation): Promise<IssuedSession> {
    return this.sessions.create(manager, user, request, impersonation ? undefined : this.cookie.read(request), impersonation);
  }

  deliverAsJson(response: Response, session: IssuedSession, user: SvcUser): UserBody {
    this.cookie.set(response, session.token);
    return this.serializer.serialize(user);
  }

  deliverAsRedirect(response: Response, session: IssuedSession, location: string): void {
    this.cookie.set(response, session.token);
    response.redirect(302, location);
  }

  clearCookie(response: Response): void {
    this.cookie.clear(response);
  }
}
