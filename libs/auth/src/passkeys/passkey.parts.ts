import type { LoginMethodParts } from '../login/login-parts.js';
import { PasskeyChallengeCookie } from './passkey-challenge-cookie.js';
import { PasskeyChallengeTokens } from './passkey-challenge-tokens.js';
import { PasskeyList } from './passkey-list.service.js';
import { PasskeyLogin } from './passkey-login.service.js';
import { PasskeyRegistration } from './passkey-registration.service.js';
import { PasskeyStore } from './passkey.store.js';
import { PasskeysOn } from './passkeys-on.guard.js';
import { PasskeysController } from './passkeys.controller.js';

/**
 * Passkeys, beside whatever login methods and credential the module has: mounted in every module
 * and served with the `passkeys` section only (404 without it, so that an async factory may give
 * the section). Shaped as a login method's parts: its own routes and services, the credential
 * reached through the delivery step only.
 */
export const passkeyParts: LoginMethodParts = {
  controllers: [PasskeysController],
  providers: [PasskeyStore, PasskeyChallengeTokens, PasskeyChallengeCookie, PasskeyRegistration, PasskeyLogin, PasskeyList, PasskeysOn],
};
