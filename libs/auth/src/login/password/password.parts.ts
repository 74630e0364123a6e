import { AUTH_CONFIG, AUTH_SCHEMAS } from '../../auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { BeforeHookInterceptor } from '../../hooks/before-hook.interceptor.js';
import type { LoginMethodParts } from '../../parts.js';
import { buildAuthSchemas } from '../../users/auth-schemas.js';
import { PasswordChangeController } from './password-change.controller.js';
import { PasswordChange } from './password-change.service.js';
import { PasswordFlows } from './password-flows.service.js';
import { PasswordHasher } from './password-hasher.js';
import { PasswordRecoveryController } from './password-recovery.controller.js';
import { PasswordRecovery } from './password-recovery.service.js';
import { PasswordController } from './password.controller.js';
import { ResetTokenStore } from './reset-token-store.js';

/**
 * Login with a password: signup, login, forgot-password, reset-password and change-password, with their request
 * schemas (built at startup from the user entity) and their before-hooks. Nothing of it exists
 * under the OAuth strategies: the strategy decides which routes exist.
 */
export const passwordLoginParts: LoginMethodParts = {
  controllers: [PasswordController, PasswordRecoveryController, PasswordChangeController],
  providers: [
    { provide: AUTH_SCHEMAS, useFactory: (config: AuthConfig) => buildAuthSchemas(config.userEntity, config.password), inject: [AUTH_CONFIG] },
    BeforeHookInterceptor,
    PasswordHasher,
    PasswordFlows,
    PasswordRecovery,
    PasswordChange,
    ResetTokenStore,
  ],
};
