import { Inject, Injectable } from '@nestjs/common';
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Request, Response } from 'express';
import { AuditLog } from '../audit-log/audit-log.js';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Passkey } from '../entities/passkey.entity.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { isUniqueViolation } from '../persistence/unique-violation.js';
import { UnprovenMailbox } from '../users/unproven-mailbox.js';
import { UserStore } from '../users/user-store.js';
import type { WebAuthnRegistrationJson } from '../users/webauthn-response-rules.js';
import { PasskeyChallengeCookie } from './passkey-challenge-cookie.js';
import { PasskeyChallengeTokens } from './passkey-challenge-tokens.js';
import { PasskeyStore, transportsOf } from './passkey.store.js';
import { UsedChallenges } from '../login/used-challenges.js';
import { userHandleOf } from './passkey-user-handle.js';
import { webAuthnLibrary } from './webauthn-library.js';

/**
 * Adding a passkey to the signed-in user's account (WebAuthn L2 §7.1), through @simplewebauthn/server:
 * creation options whose challenge is bound to this user and this browser (the challenge cookie),
 * then the authenticator's answer verified against that challenge, the relying party and its origins.
 */
@Injectable()
export class PasskeyRegistration {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly passkeys: PasskeyStore,
    private readonly tokens: PasskeyChallengeTokens,
    private readonly cookie: PasskeyChallengeCookie,
    private readonly usedChallenges: UsedChallenges,
    private readonly mailbox: UnprovenMailbox,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Creation options for a discoverable credential (residentKey required: a login needs no email),
   * excluding the user's own passkeys (WebAuthn L2 §5.4.3, excludeCredentials: one per authenticator).
   */
  async options(user: SvcUser, response: Response): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const settings = this.config.passkeys!;
    const existing = await this.unitOfWork.autocommit((manager) => this.passkeys.findOfUser(manager, user.id));
    const { generateRegistrationOptions } = await webAuthnLibrary();
    const options = await generateRegistrationOptions({
      rpName: settings.rpName,
      rpID: settings.rpId,
      userName: user.email,
      userID: userHandleOf(user.id),
      userDisplayName: user.email,
      timeout: settings.challengeTtlSeconds * 1000,
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: transportsOf(passkey) })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: settings.userVerification },
    });
    this.cookie.set(response, await this.tokens.mint({ challenge: options.challenge, purpose: 'register', userId: user.id }));
    return options;
  }

  /**
   * Verifies the authenticator's answer and stores the passkey. 401 PASSKEY_INVALID, nothing stored,
   * when the challenge cookie is missing, expired, another user's or used already (it is spent
   * before the answer is looked at), or the answer fails verification (origin, rp id, challenge,
   * user presence and verification, attestation 'none').
   */
  async register(user: SvcUser, json: WebAuthnRegistrationJson, name: string | undefined, request: Request, response: Response): Promise<Passkey> {
    const ceremony = await this.tokens.verify(this.cookie.read(request), 'register');
    this.cookie.clear(response);
    if (!ceremony || ceremony.userId !== user.id) throw new AuthError('PASSKEY_INVALID');
    // WebAuthn L2 §13.4.3: a challenge is used once, by every instance.
    if (!(await this.usedChallenges.consume('passkey', ceremony.challenge, ceremony.expiresAt))) throw new AuthError('PASSKEY_INVALID');
    const info = await this.verified(json, ceremony.challenge);
    try {
      return await this.unitOfWork.transaction(async (manager) => {
        const owner = await this.users.lockById(manager, user.id);
        if (!owner?.isActive) throw new AuthError('UNAUTHENTICATED');
        this.mailbox.refuseAfterReclaim(user, owner);
        const count = await this.passkeys.countOfUser(manager, user.id);
        const passkey = await this.passkeys.insert(manager, {
          userId: user.id,
          credentialId: info.credential.id,
          publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
          counter: info.credential.counter,
          transports: (json.response.transports ?? []).join(','),
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          name: name ?? (count === 0 ? 'Passkey' : `Passkey ${count + 1}`),
          createdAt: this.clock.now(),
        });
        await this.audit.record(manager, { action: 'passkey_added', userId: user.id, request, details: { passkeyId: passkey.id, name: passkey.name } });
        return passkey;
      });
    } catch (error) {
      // The credential is registered already (to this user or another): excludeCredentials should have said so.
      if (isUniqueViolation(error)) throw new AuthError('PASSKEY_INVALID', { cause: error });
      throw error;
    }
  }

  /** The verified registration; 401 PASSKEY_INVALID for anything the library refuses. */
  private async verified(json: WebAuthnRegistrationJson, challenge: string) {
    const settings = this.config.passkeys!;
    const { verifyRegistrationResponse } = await webAuthnLibrary();
    try {
      const verification = await verifyRegistrationResponse({
        response: json as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: [...settings.origins],
        expectedRPID: settings.rpId,
        requireUserVerification: settings.userVerification === 'required',
      });
      if (!verification.verified) throw new Error('registration not verified');
      return verification.registrationInfo;
    } catch (error) {
      throw new AuthError('PASSKEY_INVALID', { cause: error });
    }
  }
}
