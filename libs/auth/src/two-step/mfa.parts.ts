import { SECOND_FACTOR_GATE } from '../login/login-parts.js';
import type { LoginMethodParts } from '../login/login-parts.js';
import { MfaAttemptLimit } from './mfa-attempt-limit.js';
import { MfaChallengeCookie } from './mfa-challenge-cookie.js';
import { MfaChallengeTokens } from './mfa-challenge-token.js';
import { MfaGate } from './mfa-gate.js';
import { MfaLimiterCheck } from './mfa-limiter.check.js';
import { MfaOn } from './mfa-on.guard.js';
import { MfaProofs } from './mfa-proof.js';
import { MfaSettings } from './mfa-settings.service.js';
import { MfaTotpStore } from './mfa-totp.store.js';
import { MfaController } from './mfa.controller.js';
import { MfaVerification } from './mfa-verify.service.js';
import { RecoveryCodeStore } from './recovery-code.store.js';
import { TotpCodes } from './totp-codes.js';
import { TotpSecretCipher } from './totp-secret.cipher.js';

/**
 * Two-step login, beside the password method (docs/guides/two-step.md): its routes (404 without
 * the `mfa` section) and the gate every login completes through. Without the password method the
 * gate alone is registered: the section needs that method, so it never challenges there.
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
    MfaOn,
    MfaLimiterCheck,
    MfaGate,
    { provide: SECOND_FACTOR_GATE, useExisting: MfaGate },
  ],
};

/** Without the password method: no routes; the gate, which lets every login through. */
export const mfaGateOnly: LoginMethodParts = {
  controllers: [],
  providers: [MfaChallengeTokens, MfaChallengeCookie, MfaGate, { provide: SECOND_FACTOR_GATE, useExisting: MfaGate }],
};
