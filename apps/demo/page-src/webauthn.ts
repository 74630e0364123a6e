/**
 * webauthn: the browser's half of a passkey ceremony, for the client's `webauthn` option. The
 * server's JSON options become the browser's own (`PublicKeyCredential.parseCreationOptionsFromJSON`
 * / `parseRequestOptionsFromJSON`) and its credential goes back as JSON (`toJSON()`): WebAuthn
 * Level 3 §5.1.8–§5.1.10, no base64url code of our own. A failure throws a `CeremonyError` in plain words.
 */
import type { WebAuthnCeremonies } from '#svc/auth/client';

/** The device's side of the ceremony failed (cancelled, no authenticator...): `message` says so in plain words. */
export class CeremonyError extends Error {}

interface JsonCredential {
  toJSON(): unknown;
}

const supported =
  typeof window.PublicKeyCredential === 'function' &&
  typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function' &&
  typeof PublicKeyCredential.parseRequestOptionsFromJSON === 'function';

export const pageCeremonies: WebAuthnCeremonies = {
  // A new passkey (registration) from POST /auth/passkeys/register/options's answer.
  startRegistration: ({ optionsJSON }) =>
    ceremony(() => navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(optionsJSON as never) })) as never,
  // An assertion by one of this site's passkeys (discoverable: the device lists them) from POST /auth/passkeys/login/options's answer.
  startAuthentication: ({ optionsJSON }) =>
    ceremony(() => navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(optionsJSON as never) })) as never,
};

async function ceremony(run: () => Promise<Credential | null>): Promise<unknown> {
  if (!supported) throw new CeremonyError('This browser cannot use passkeys on this page. Use a current Chrome, Edge, Firefox or Safari.');
  let credential: Credential | null;
  try {
    credential = await run();
  } catch (error) {
    throw new CeremonyError(plainFailure(error));
  }
  if (!credential) throw new CeremonyError('No passkey was chosen. Try again.');
  return (credential as unknown as JsonCredential).toJSON();
}

function plainFailure(error: unknown): string {
  switch (error instanceof Error ? error.name : undefined) {
    case 'NotAllowedError':
      return 'The passkey request was cancelled or timed out. Try again when you are ready.';
    case 'InvalidStateError':
      return 'This device already holds a passkey for your account.';
    case 'SecurityError':
      return 'Passkeys do not work at this address: open the demo at its configured address (AUTH_BASE_URL).';
    case 'NotSupportedError':
      return 'This device has no authenticator that can keep a passkey.';
    default:
      return 'The passkey request failed. Try again.';
  }
}
