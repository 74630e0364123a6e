import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AuditLog } from '../audit-log/audit-log.js';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import { CREDENTIAL_ISSUER } from '../credentials/credential.tokens.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Clock } from '../config/clock.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent, type LoginFailureEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import type { LoginPayload, SignupPayload } from '../hooks/auth-hooks.js';
import { clientAddressOf } from '../http/client-address.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { normalizeEmail } from '../users/email.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { UserStore } from '../users/user-store.js';
import { EmailVerification } from '../email/email-verification.service.js';
import { PasswordHasher } from './password-hasher.js';
import { constantTimeEqual } from '../crypto/opaque-token.js';
import type { SignupResult } from '../credentials/credential-delivery.js';
import type { CredentialIssuer } from '../credentials/credential-issuer.js';
import { LoginCompletion, type StagedLogin } from '../login/login-completion.js';
import { LoginActivity } from '../audit-log/login-activity.js';

/** Returned when the stored hash is no longer the one verified. */
const HASH_CHANGED = Symbol('hash changed');

interface VerifiedUser {
  user: SvcUser;
  verifiedHash: string;
}

/** Signup and login with a password; the credential comes from the configured credential's issuer. */
@Injectable()
export class PasswordFlows {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly hasher: PasswordHasher,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    @Inject(CREDENTIAL_ISSUER) private readonly issuer: CredentialIssuer,
    private readonly verification: EmailVerification,
    private readonly completion: LoginCompletion,
    private readonly audit: AuditLog,
    private readonly activity: LoginActivity,
  ) {}

  /**
   * Creates the user, its verification token (verification on) and, when the credential logs new
   * users in and verification does not hold them back, its credential, in one transaction.
   */
  async signup(payload: SignupPayload, request: Request): Promise<SignupResult> {
    const { email, password, ...columns } = payload;
    // Hash before the transaction: bcrypt's ~200 ms must not hold a connection or SQLite's turn.
    const passwordHash = await this.hasher.hash(password.reveal());
    const { verificationToken, ...result } = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.users.insert(manager, { ...columns, email: normalizeEmail(email), passwordHash }, { singleScript: true });
      const verificationToken = await this.verification.stageAtSignup(manager, user);
      // With verification required, a new user signs in only once the email is verified.
      const signsIn = this.issuer.issuedAtSignup && !this.verification.blocksLogin(user);
      // A signup that signs the user in is their first login: its device is the first one known.
      if (signsIn) await this.activity.record(manager, user, request, { method: 'password', signup: true });
      return { user, verificationToken, credential: signsIn ? await this.issuer.issue(manager, user, request) : undefined };
    });
    this.events.publishAfterResponse(request, AuthEvent.SignupAfter, { user: this.serializer.serialize(result.user) });
    if (verificationToken) this.verification.announce(request, result.user, verificationToken);
    return result;
  }

  /**
   * Checks the password (unknown email and wrong password give the same error after the same
   * bcrypt work: OWASP Authentication Cheat Sheet), then stages what the login completes with in one
   * transaction, against the hash that was verified only.
   */
  async login(payload: LoginPayload, request: Request): Promise<StagedLogin> {
    const email = normalizeEmail(payload.email);
    const password = payload.password.reveal();
    const issued = await this.issueAgainstVerifiedHash(request, await this.checkPassword(request, email, password), password);
    if (issued !== HASH_CHANGED) return issued;
    // The hash changed while bcrypt ran: a reset (the new hash will not match this password) or
    // another login's silent upgrade (it will). Check once more against the new hash.
    const again = await this.issueAgainstVerifiedHash(request, await this.checkPassword(request, email, password), password);
    if (again !== HASH_CHANGED) return again;
    this.reportFailure(request, email, 'bad_password', undefined);
    throw new AuthError('INVALID_CREDENTIALS');
  }

  /** The active user whose stored hash `password` matches, read outside any transaction (bcrypt must not hold one). */
  private async checkPassword(request: Request, email: string, password: string): Promise<VerifiedUser> {
    const user = await this.unitOfWork.autocommit((manager) => this.users.findByEmail(manager, email));
    const matches = await this.hasher.verify(password, user?.passwordHash ?? null);
    if (!user || !matches) {
      this.reportFailure(request, email, user ? 'bad_password' : 'unknown_email', user?.id);
      throw new AuthError('INVALID_CREDENTIALS');
    }
    if (!user.isActive) {
      this.reportFailure(request, email, 'inactive', user.id);
      throw new AuthError('USER_INACTIVE');
    }
    // Only after the right password, and after the same bcrypt work as every refusal: a wrong one stays 401.
    if (this.verification.blocksLogin(user)) {
      this.reportFailure(request, email, 'email_not_verified', user.id);
      throw new AuthError('EMAIL_NOT_VERIFIED');
    }
    return { user, verifiedHash: user.passwordHash! };
  }

  /**
   * docs/decisions/0009-login-and-concurrent-changes.md: the transaction re-reads the user under a lock and issues the credential only if
   * the hash is still the one bcrypt verified and the user still active, so a reset that committed
   * meanwhile (and revoked every credential) is never outlived by this login. A silent upgrade to
   * the configured cost replaces only that same hash.
   */
  private async issueAgainstVerifiedHash(
    request: Request,
    { user, verifiedHash }: VerifiedUser,
    password: string,
  ): Promise<StagedLogin | typeof HASH_CHANGED> {
    const upgradedHash = this.hasher.needsRehash(verifiedHash) ? await this.hasher.hash(password) : undefined;
    return this.unitOfWork.transaction(async (manager) => {
      const current = await this.users.lockById(manager, user.id);
      if (!current?.isActive) {
        this.reportFailure(request, user.email, 'inactive', user.id);
        throw new AuthError('INVALID_CREDENTIALS');
      }
      if (current.passwordHash === null || !constantTimeEqual(current.passwordHash, verifiedHash)) return HASH_CHANGED;
      if (upgradedHash) await this.users.replacePasswordHash(manager, current.id, verifiedHash, upgradedHash);
      return this.completion.stage(manager, current, request, { method: 'password' });
    });
  }

  /**
   * `svc.login.failure`, and for a known account its `login_failed` entry (docs/decisions/0029-activity-log.md):
   * written once the response has gone, as the event is, so a known and an unknown email answer in the same time.
   */
  private reportFailure(request: Request, email: string, reason: LoginFailureEvent['reason'], userId: string | undefined): void {
    if (userId !== undefined) this.audit.recordAfterResponse(request, { action: 'login_failed', userId, details: { reason } });
    this.events.publishAfterResponse(request, AuthEvent.LoginFailure, { email, reason, ip: clientAddressOf(request, this.config), at: this.clock.now() });
  }
}
