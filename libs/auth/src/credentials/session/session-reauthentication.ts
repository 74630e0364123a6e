import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuthError } from '../../errors/auth.error.js';
import type { CredentialReauthentication } from '../credential-reauthentication.js';
import type { Principal } from '../credential-resolver.js';
import { SessionStore } from './session-store.js';

/** A re-authentication moves the session row's `auth_time`; the cookie stays as it is (204). */
@Injectable()
export class SessionReauthentication implements CredentialReauthentication<void> {
  constructor(private readonly sessions: SessionStore) {}

  async renew(manager: EntityManager, principal: Principal): Promise<void> {
    if (principal.sessionId === undefined) throw new AuthError('UNAUTHENTICATED');
    await this.sessions.reauthenticated(manager, principal.sessionId, principal.user.id);
  }

  deliver(): undefined {
    return undefined;
  }
}
