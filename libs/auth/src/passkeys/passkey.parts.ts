import type { LoginMethodParts } from '../login/login-parts.js';
import { PasskeyChallengeCookie } from './passkey-challenge-cookie.js';
import { PasskeyChallengeTokens } from './passkey-challenge-tokens.js';
import { PasskeyList } from './passkey-list.service.js';
import { PasskeyLogin } from './passkey-login.service.js';
import { PasskeyRegistration } from './passkey-registration.service.js';
import { PasskeyStore } from './passkey.store.js';
import { PasskeysController } from './passkeys.controller.js';

/**
 * Passkeys, beside whatever login methods and credential the module has: mounted only with the
 * `passkeys` section (docs/decisions/0001-module-shape.md; without it their paths are routes no
 * route matches, 404 under the prefix). Shaped as a login method's parts: its own routes and
 * services, the credential reached through the login completion only.
 */
export const passkeyParts: LoginMethodParts = {
  controllers: [PasskeysController],
  providers: [PasskeyStore, PasskeyChallengeTokens, PasskeyChallengeCookie, PasskeyRegistration, PasskeyLogin, PasskeyList],
};
