import { HttpStatus, Inject, Injectable, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Clock } from '../config/clock.js';
import { CREDENTIAL_REAUTHENTICATION } from '../credentials/credential.tokens.js';
import type { CredentialReauthentication } from '../credentials/credential-reauthentication.js';
import type { Principal } from '../credentials/credential-resolver.js';
import { AuthError } from '../errors/auth.error.js';
import { PasskeyLogin } from '../passkeys/passkey-login.service.js';
import { PasswordHasher } from '../password/password-hasher.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { MfaProofs } from '../two-step/mfa-proof.js';
import { UserStore } from '../users/user-store.js';
import type { WebAuthnAssertionJson } from '../users/webauthn-response-rules.js';

/** What a re-authentication renewed, for the credential to answer with once it has committed. */
export interface Reauthenticated {
  renewed: unknown;
}

/**
 * POST /reauth and /reauth/passkey (docs/guides/account-security.md, "Fresh sign-in"): the signed-in
 * user proves again who they are, with what they could sign in with, and the presented credential's
 * `authTime` becomes now (OWASP ASVS 5.0 V7.5.1). Nothing else changes: no new session, no new refresh
 * family. A wrong answer changes nothing.
 */
@Injectable()
export class Reauthentication {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    @Inject(CREDENTIAL_REAUTHENTICATION) private readonly credential: CredentialReauthentication,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    @Optional() private readonly hasher?: PasswordHasher,
    @Optional() private readonly proofs?: MfaProofs,
    @Optional() private readonly passkeys?: PasskeyLogin,
  ) {}

  /**
   * The current password: 401 INVALID_CREDENTIALS when wrong, or when the user has none here (the
   * same bcrypt work either way). The credential is renewed only if the verified hash is still the
   * row's when the transaction reads it under its lock (a reset in between wins).
   */
  async withPassword(principal: Principal, password: string): Promise<Reauthenticated> {
    const hash = this.config.loginMethods.includes('password') ? principal.user.passwordHash : null;
    const verified = this.hasher ? await this.hasher.verify(password, hash) : false;
    if (!verified || hash === null) throw new AuthError('INVALID_CREDENTIALS');
    return this.renew(principal, async (manager) => {
      const user = await this.users.lockById(manager, principal.user.id);
      return user?.isActive === true && user.passwordHash === hash;
    }, 'INVALID_CREDENTIALS');
  }

  /**
   * A code of the user's authenticator app (RFC 6238), spent as at the login's second step: a code
   * is accepted once. 401 MFA_CODE_INVALID when wrong, replayed, or two-step login is off. Recovery
   * codes are not taken here: they are for a lost authenticator, and the password re-authenticates.
   */
  async withCode(principal: Principal, code: string): Promise<Reauthenticated> {
    const proofs = this.proofs;
    if (!proofs || !this.config.mfa) throw new AuthError('MFA_CODE_INVALID', { status: HttpStatus.UNAUTHORIZED });
    return this.renew(principal, async (manager) => {
      const user = await this.users.lockById(manager, principal.user.id);
      if (!user?.isActive || !user.mfaTotpEnabled) return false;
      return (await proofs.check(manager, user.id, { code }, this.clock.now())).proven;
    }, 'MFA_CODE_INVALID');
  }

  /** Request options naming the user's own passkeys; the challenge cookie is bound to the user. */
  passkeyOptions(principal: Principal, response: Response): Promise<object> {
    if (!this.passkeys || !this.config.passkeys) throw new AuthError('NOT_FOUND');
    return this.passkeys.reauthOptions(principal.user.id, response);
  }

  /** An assertion of one of the user's own passkeys: 401 PASSKEY_INVALID otherwise. */
  async withPasskey(principal: Principal, json: WebAuthnAssertionJson, request: Request, response: Response): Promise<Reauthenticated> {
    if (!this.passkeys || !this.config.passkeys) throw new AuthError('NOT_FOUND');
    const renewed = await this.passkeys.reauthenticate(principal.user.id, json, request, response, (manager) => this.credential.renew(manager, principal));
    return { renewed };
  }

  /** The answer once the renewal has committed: 204 (session) or the token body (jwt). */
  deliver(response: Response, done: Reauthenticated): object | undefined {
    return this.credential.deliver(response, done.renewed);
  }

  /**
   * Checks the proof inside the transaction and renews the credential in the same commit; a failed
   * proof rolls nothing forward but what the proof itself spends (nothing, for a wrong answer).
   */
  private async renew(principal: Principal, proven: (manager: EntityManager) => Promise<boolean>, refusal: 'INVALID_CREDENTIALS' | 'MFA_CODE_INVALID'): Promise<Reauthenticated> {
    const outcome = await this.unitOfWork.transaction(async (manager) => ((await proven(manager)) ? { renewed: await this.credential.renew(manager, principal) } : null));
    if (outcome === null) throw new AuthError(refusal, { status: HttpStatus.UNAUTHORIZED });
    return outcome;
  }
}
