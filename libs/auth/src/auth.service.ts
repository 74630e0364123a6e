import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AUTH_CONFIG } from './auth.constants.js';
import type { AuthConfig } from './config/auth-config.js';
import type { SvcUser } from './entities/user.entity.js';
import { UnitOfWork } from './persistence/unit-of-work.js';
import { RefreshTokenStore } from './strategies/jwt/refresh-token-store.js';
import { SessionStore } from './strategies/session/session-store.js';
import type { UserBody } from './users/user-body.js';
import { UserSerializer } from './users/user-serializer.service.js';
import { UserStore } from './users/user-store.js';

/** What an application calls on the library from its own code. */
@Injectable()
export class AuthService {
  constructor(
    @Inject(AUTH_CONFIG) readonly config: AuthConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly sessions: SessionStore,
    private readonly refreshTokens: RefreshTokenStore,
    private readonly serializer: UserSerializer,
  ) {}

  /** The user body of a row: id, email and the `@SvcReturned()` columns. */
  toUserBody(user: SvcUser): UserBody {
    return this.serializer.serialize(user);
  }

  findUserById(id: string): Promise<SvcUser | null> {
    return this.unitOfWork.read((manager) => this.users.findById(manager, id));
  }

  /** Logs the user out everywhere (session strategy): every session row is deleted. */
  revokeAllSessions(userId: string): Promise<void> {
    return this.unitOfWork.transaction((manager) => this.sessions.revokeAllOfUser(manager, userId));
  }

  /** Deletes expired session rows; the caller commits (pass a transaction's manager). */
  purgeExpiredSessions(manager: EntityManager): Promise<number> {
    return this.sessions.purgeExpired(manager);
  }

  /** Logs the user out everywhere (jwt): every refresh family is revoked, and with it its access tokens. */
  revokeAllRefreshFamilies(userId: string): Promise<void> {
    return this.unitOfWork.transaction((manager) => this.refreshTokens.revokeAllOfUser(manager, userId));
  }

  /**
   * Deletes refresh rows that can no longer matter; the caller commits (pass a transaction's
   * manager). Expired rows go; a revoked row stays until its whole family has expired (at most
   * `jwt.refreshTokenExpireDays` after the revocation). From a scheduler, e.g. `@nestjs/schedule`:
   * `@Cron('0 * * * *') purge() { return unitOfWork.transaction((m) => auth.purgeExpiredRefreshTokens(m)); }`
   */
  purgeExpiredRefreshTokens(manager: EntityManager): Promise<number> {
    return this.refreshTokens.purgeExpired(manager);
  }
}
