import { SECOND_FACTOR_GATE } from '../login/login-parts.js';
import type { LoginMethodParts, SecondFactorGate } from '../login/login-parts.js';
import { MfaAttemptLimit } from './mfa-attempt-limit.js';
import { MfaChallengeCookie } from './mfa-challenge-cookie.js';
import { MfaChallengeTokens } from './mfa-challenge-token.js';
import { MfaGate } from './mfa-gate.js';
import { MfaLimiterCheck } from './mfa-limiter.check.js';
import { MfaProofs } from './mfa-proof.js';
import { MfaSettings } from './mfa-settings.service.js';
import { MfaTotpStore } from './mfa-totp.store.js';
import { MfaController } from './mfa.controller.js';
import { MfaVerification } from './mfa-verify.service.js';
import { RecoveryCodeStore } from './recovery-code.store.js';
import { TotpCodes } from './totp-codes.js';
import { TotpSecretCipher } from './totp-secret.cipher.js';

/**
 * Two-step login, beside the password method (docs/guides/two-step.md): its routes and the gate
 * every login completes through. Mounted only with the `mfa` section (docs/decisions/0001-module-shape.md).
 */
export const mfaParts: LoginMethodParts = {
  controllers: [MfaController],
  providers: [
    TotpSecretCipher,
    TotpCodes,
    MfaTotpStore,
    RecoveryCodeStore,
    MfaProofs,
    MfaChallengeTokens,
    MfaChallengeCookie,
    MfaAttemptLimit,
    MfaSettings,
    MfaVerification,
    MfaLimiterCheck,
    MfaGate,
    { provide: SECOND_FACTOR_GATE, useExisting: MfaGate },
  ],
};

/** Nobody owes a second factor: every login completes at once. */
const noSecondFactor: SecondFactorGate<never> = {
  challengeFor: () => Promise.resolve(null),
  deliver: () => undefined,
};

/** Without the `mfa` section (or the password method it needs): no routes; a gate that lets every login through. */
export const noSecondFactorParts: LoginMethodParts = {
  controllers: [],
  providers: [{ provide: SECOND_FACTOR_GATE, useValue: noSecondFactor }],
};
