import type { LoginMethodParts } from '../login/login-parts.js';
import { PasskeysOn } from './passkeys-on.guard.js';
import { ReauthController } from './reauth.controller.js';
import { Reauthentication } from './reauth.service.js';

/**
 * Fresh sign-in's routes (docs/guides/account-security.md): always mounted, whatever the credential
 * and the ways in; the passkey ones answer 404 without the `passkeys` section.
 */
export const reauthParts: LoginMethodParts = {
  controllers: [ReauthController],
  providers: [Reauthentication, PasskeysOn],
};
