import { MailObserversCheck } from '../events/mail-observers.check.js';
import { AccountReclaim } from '../email/account-reclaim.js';
import type { LoginMethodParts } from '../login/login-parts.js';
import { EmailChangeController } from '../email/email-change.controller.js';
import { EmailChange } from '../email/email-change.service.js';
import { EmailLifecycleOn } from '../email/email-lifecycle.guard.js';
import { EmailTokenStore } from '../email/email-token-store.js';
import { EmailVerificationController } from '../email/email-verification.controller.js';
import { EmailVerification } from '../email/email-verification.service.js';
import { PasswordCheck, UnusedResetLinks } from '../email/password-method.js';
import { PasswordChangeController } from './password-change.controller.js';
import { PasswordChange } from './password-change.service.js';
import { PasswordFlows } from './password-flows.service.js';
import { PasswordHasher } from './password-hasher.js';
import { PasswordRecoveryController } from './password-recovery.controller.js';
import { PasswordRecovery } from './password-recovery.service.js';
import { PasswordController } from './password.controller.js';
import { ResetTokenStore } from './reset-token-store.js';

/**
 * Login with a password: signup, login, forgot-password, reset-password and change-password, and
 * with the `emailVerification` section, verification and change of the email (their routes answer
 * 404 without it). Nothing of it exists in a module without the password method.
 */
export const passwordLoginParts: LoginMethodParts = {
  controllers: [PasswordController, PasswordRecoveryController, PasswordChangeController, EmailVerificationController, EmailChangeController],
  providers: [
    PasswordHasher,
    PasswordFlows,
    PasswordRecovery,
    PasswordChange,
    ResetTokenStore,
    { provide: PasswordCheck, useExisting: PasswordHasher },
    { provide: UnusedResetLinks, useExisting: ResetTokenStore },
    EmailTokenStore,
    EmailVerification,
    EmailChange,
    AccountReclaim,
    EmailLifecycleOn,
    MailObserversCheck,
  ],
};
