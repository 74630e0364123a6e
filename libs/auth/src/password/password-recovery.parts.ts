import { PasswordRecoveryController } from './password-recovery.controller.js';
import { PasswordRecovery } from './password-recovery.service.js';
import { ResetTokenStore } from './reset-token-store.js';

/** What password recovery adds to a strategy that has passwords (session, jwt). */
export const passwordRecoveryParts = {
  controllers: [PasswordRecoveryController],
  providers: [PasswordRecovery, ResetTokenStore],
} as const;
