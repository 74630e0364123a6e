import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import { constantTimeEqual } from '../crypto/opaque-token.js';
import type { Passkey } from '../entities/passkey.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { clientAddressOf } from '../http/client-address.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { UserStore } from '../users/user-store.js';
import type { WebAuthnAssertionJson } from '../users/webauthn-response-rules.js';
import { PasskeyChallengeCookie } from './passkey-challenge-cookie.js';
import { PasskeyChallengeTokens } from './passkey-challenge-tokens.js';
import { PasskeyStore, transportsOf } from './passkey.store.js';
import { LoginCompletion, type StagedLogin } from '../login/login-completion.js';
import { UsedChallenges } from '../login/used-challenges.js';
import { userHandleText } from './passkey-user-handle.js';
import { webAuthnLibrary } from './webauthn-library.js';

/** A counter that did not go forward: the assertion is refused, and reported. */
const COUNTER_REGRESSION = Symbol('counter regression');

/**
 * Signing in with a passkey (WebAuthn L2 §7.2), through @simplewebauthn/server: request options for
 * a discoverable credential (no email typed, no user named), then the assertion verified against
 * the challenge cookie, the relying party, its origins and the stored public key. The credential is
 * issued through the login completion, as any login's, in the counter's transaction: a passkey is a
 * whole login (two factors in one with user verification), so it signs in without the second-factor
 * gate, and two-step login asks nothing more of it.
 */
@Injectable()
export class PasskeyLogin {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly passkeys: PasskeyStore,
    private readonly tokens: PasskeyChallengeTokens,
    private readonly cookie: PasskeyChallengeCookie,
    private readonly usedChallenges: UsedChallenges,
    private readonly completion: LoginCompletion,
    private readonly events: AuthEventPublisher,
  ) {}

  /** Request options with no allowCredentials: the same answer for everyone, naming no user (no enumeration). */
  async options(response: Response): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const settings = this.config.passkeys!;
    const { generateAuthenticationOptions } = await webAuthnLibrary();
    const options = await generateAuthenticationOptions({ rpID: settings.rpId, userVerification: settings.userVerification, timeout: settings.challengeTtlSeconds * 1000 });
    this.cookie.set(response, await this.tokens.mint({ challenge: options.challenge, purpose: 'login' }));
    return options;
  }

  /**
   * Verifies the assertion and stages the credential, for the login completion to answer with. 401
   * PASSKEY_INVALID, no credential, when the challenge cookie is missing, expired or used already (it
   * is spent first), the credential is unknown, the user handle names another account, the assertion
   * fails verification (signature, origin, rp id, challenge, user presence and verification), or the
   * signature counter did not go forward (then `svc.passkey.counter_regression` is published). 403
   * USER_INACTIVE for an inactive owner.
   */
  async login(json: WebAuthnAssertionJson, request: Request, response: Response): Promise<StagedLogin> {
    const ceremony = await this.tokens.verify(this.cookie.read(request), 'login');
    this.cookie.clear(response);
    if (!ceremony) throw new AuthError('PASSKEY_INVALID');
    if (!(await this.usedChallenges.consume('passkey', ceremony.challenge, ceremony.expiresAt))) throw new AuthError('PASSKEY_INVALID');
    const passkey = await this.unitOfWork.autocommit((manager) => this.passkeys.findByCredentialId(manager, json.id));
    if (!passkey) throw new AuthError('PASSKEY_INVALID');
    // WebAuthn L2 §7.2 step 6: the user handle the authenticator returns names the credential's owner.
    if (json.response.userHandle !== undefined && !constantTimeEqual(json.response.userHandle, userHandleText(passkey.userId))) throw new AuthError('PASSKEY_INVALID');
    const info = await this.verified(json, ceremony.challenge, passkey);
    const login = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.users.findById(manager, passkey.userId);
      if (!user) throw new AuthError('PASSKEY_INVALID');
      if (!user.isActive) throw new AuthError('USER_INACTIVE');
      // WebAuthn L2 §7.2 step 21: a signature counter that does not go forward may be a cloned authenticator.
      if (!(await this.passkeys.recordUse(manager, passkey, { counter: info.newCounter, backedUp: info.credentialBackedUp, at: this.clock.now() }))) return COUNTER_REGRESSION;
      // Two factors in one: signed in without the second-factor gate, the credential in the counter's commit.
      return this.completion.signIn(manager, user, request, { method: 'passkey' });
    });
    if (login === COUNTER_REGRESSION) {
      this.reportCounterRegression(request, passkey, info.newCounter);
      throw new AuthError('PASSKEY_INVALID');
    }
    return login;
  }

  /**
   * Request options for a re-authentication of the signed-in user (docs/guides/account-security.md):
   * only their own passkeys are allowed, and the challenge cookie is bound to them.
   */
  async reauthOptions(userId: string, response: Response): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const settings = this.config.passkeys!;
    const { generateAuthenticationOptions } = await webAuthnLibrary();
    const own = await this.unitOfWork.autocommit((manager) => this.passkeys.findOfUser(manager, userId));
    const options = await generateAuthenticationOptions({
      rpID: settings.rpId,
      userVerification: settings.userVerification,
      timeout: settings.challengeTtlSeconds * 1000,
      allowCredentials: own.map((passkey) => ({ id: passkey.credentialId, transports: transportsOf(passkey) as never })),
    });
    this.cookie.set(response, await this.tokens.mint({ challenge: options.challenge, purpose: 'reauth', userId }));
    return options;
  }

  /**
   * Verifies an assertion of one of `userId`'s own passkeys against the re-authentication's challenge
   * (401 PASSKEY_INVALID otherwise: another user's passkey proves nothing about this one), then runs
   * `renew` in the counter's transaction.
   */
  async reauthenticate<T>(userId: string, json: WebAuthnAssertionJson, request: Request, response: Response, renew: (manager: EntityManager) => Promise<T>): Promise<T> {
    const ceremony = await this.tokens.verify(this.cookie.read(request), 'reauth');
    this.cookie.clear(response);
    if (!ceremony || ceremony.userId !== userId) throw new AuthError('PASSKEY_INVALID');
    if (!(await this.usedChallenges.consume('passkey', ceremony.challenge, ceremony.expiresAt))) throw new AuthError('PASSKEY_INVALID');
    const passkey = await this.unitOfWork.autocommit((manager) => this.passkeys.findByCredentialId(manager, json.id));
    if (!passkey || passkey.userId !== userId) throw new AuthError('PASSKEY_INVALID');
    if (json.response.userHandle !== undefined && !constantTimeEqual(json.response.userHandle, userHandleText(passkey.userId))) throw new AuthError('PASSKEY_INVALID');
    const info = await this.verified(json, ceremony.challenge, passkey);
    const renewed = await this.unitOfWork.transaction(async (manager) => {
      // WebAuthn L2 §7.2 step 21, as at a login.
      if (!(await this.passkeys.recordUse(manager, passkey, { counter: info.newCounter, backedUp: info.credentialBackedUp, at: this.clock.now() }))) return COUNTER_REGRESSION;
      return { value: await renew(manager) };
    });
    if (renewed === COUNTER_REGRESSION) {
      this.reportCounterRegression(request, passkey, info.newCounter);
      throw new AuthError('PASSKEY_INVALID');
    }
    return renewed.value;
  }

  /** The verified assertion's authenticator data; 401 PASSKEY_INVALID for anything the library refuses. */
  private async verified(json: WebAuthnAssertionJson, challenge: string, passkey: Passkey) {
    const settings = this.config.passkeys!;
    const { verifyAuthenticationResponse } = await webAuthnLibrary();
    try {
      const verification = await verifyAuthenticationResponse({
        response: json as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: [...settings.origins],
        expectedRPID: settings.rpId,
        // The counter is checked after this, once the signature has been verified, atomically in the database:
        // the library compares it before the signature, so an unsigned answer could raise the alarm.
        credential: { id: passkey.credentialId, publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')), counter: 0, transports: transportsOf(passkey) as never },
        requireUserVerification: settings.userVerification === 'required',
      });
      if (!verification.verified) throw new Error('signature not verified');
      return verification.authenticationInfo;
    } catch (error) {
      throw new AuthError('PASSKEY_INVALID', { cause: error });
    }
  }

  private reportCounterRegression(request: Request, passkey: Passkey, presented: number): void {
    this.events.publishAfterResponse(request, AuthEvent.PasskeyCounterRegression, {
      userId: passkey.userId,
      passkeyId: passkey.id,
      storedCounter: passkey.counter,
      presentedCounter: presented,
      ip: clientAddressOf(request, this.config),
      at: this.clock.now(),
    });
  }
}
