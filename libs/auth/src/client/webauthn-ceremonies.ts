import {
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';

/**
 * The device side of a WebAuthn ceremony (WebAuthn Level 2 §5.1.3 create, §5.1.4 get), by default
 * @simplewebauthn/browser's; React Native or a test passes its own (an authenticator module, a
 * software authenticator). Both take the server's options JSON and answer the credential as JSON.
 */
export interface WebAuthnCeremonies {
  startRegistration(options: { optionsJSON: PublicKeyCredentialCreationOptionsJSON }): Promise<RegistrationResponseJSON>;
  startAuthentication(options: { optionsJSON: PublicKeyCredentialRequestOptionsJSON }): Promise<AuthenticationResponseJSON>;
}

export const browserWebAuthn: WebAuthnCeremonies = {
  startRegistration: (options) => startRegistration(options),
  startAuthentication: (options) => startAuthentication(options),
};
