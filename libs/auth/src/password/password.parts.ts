import type { LoginMethodParts } from '../strategies/credential/credential-parts.js';
import { PasswordFlows } from './password-flows.service.js';
import { PasswordHasher } from './password-hasher.js';
import { PasswordRecoveryController } from './password-recovery.controller.js';
import { PasswordRecovery } from './password-recovery.service.js';
import { PasswordController } from './password.controller.js';
import { ResetTokenStore } from './reset-token-store.js';

/** Login with a password: signup, login, forgot-password and reset-password. */
export const passwordLoginParts: LoginMethodParts = {
  controllers: [PasswordController, PasswordRecoveryController],
  providers: [PasswordHasher, PasswordFlows, PasswordRecovery, ResetTokenStore],
};
