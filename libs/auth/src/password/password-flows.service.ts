import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK } from '../auth.constants.js';
import type { Clock } from '../clock.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import type { LoginPayload, SignupPayload } from '../hooks/auth-hooks.js';
import { clientIpOf } from '../http/client-ip.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { normalizeEmail } from '../users/normalize-email.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { UserStore } from '../users/user-store.js';
import { PasswordHasher } from './password-hasher.js';

/** Issues the strategy's credential for `user` inside the request's transaction. */
export type IssueCredential<C> = (manager: EntityManager, user: SvcUser) => Promise<C>;

/** Signup and login with a password, shared by the session and jwt strategies. */
@Injectable()
export class PasswordFlows {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly hasher: PasswordHasher,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {}

  /** Creates the user and (if `issue` is given) its credential in one transaction. */
  async signup<C>(payload: SignupPayload, request: Request, issue?: IssueCredential<C>): Promise<{ user: SvcUser; credential?: C }> {
    const { email, password, ...columns } = payload;
    // Hash before the transaction: bcrypt's ~200 ms must not hold a connection or SQLite's turn.
    const passwordHash = await this.hasher.hash(password.reveal());
    const result = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.users.insert(manager, { ...columns, email: normalizeEmail(email), passwordHash });
      return { user, credential: issue ? await issue(manager, user) : undefined };
    });
    this.events.publishAfterResponse(request, AuthEvent.SignupAfter, { user: this.serializer.serialize(result.user) });
    return result;
  }

  /**
   * Checks the password (unknown email and wrong password give the same error after the same
   * bcrypt work: OWASP Authentication cheat sheet), then issues the credential in one transaction.
   */
  async login<C>(payload: LoginPayload, request: Request, issue: IssueCredential<C>): Promise<{ user: SvcUser; credential: C }> {
    const email = normalizeEmail(payload.email);
    const password = payload.password.reveal();
    const user = await this.unitOfWork.read((manager) => this.users.findByEmail(manager, email));
    const matches = await this.hasher.verify(password, user?.passwordHash ?? null);
    if (!user || !matches) {
      this.reportFailure(request, email, user ? 'bad_password' : 'unknown_email');
      throw new AuthError('INVALID_CREDENTIALS');
    }
    if (!user.isActive) {
      this.reportFailure(request, email, 'inactive');
      throw new AuthError('USER_INACTIVE');
    }
    const upgradedHash = this.hasher.needsRehash(user.passwordHash!) ? await this.hasher.hash(password) : undefined;
    const credential = await this.unitOfWork.transaction(async (manager) => {
      if (upgradedHash) await this.users.setPasswordHash(manager, user.id, upgradedHash);
      return issue(manager, user);
    });
    return { user, credential };
  }

  private reportFailure(request: Request, email: string, reason: 'unknown_email' | 'bad_password' | 'inactive'): void {
    this.events.publishAfterResponse(request, AuthEvent.LoginFailure, { email, reason, ip: clientIpOf(request), at: this.clock.now() });
  }
}
