/**
 * /demo/webauthn.js: the browser's half of a passkey ceremony. The server's JSON options become
 * the browser's own (`PublicKeyCredential.parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON`)
 * and its credential goes back as JSON (`toJSON()`): WebAuthn Level 3 §5.1.8–§5.1.10, no base64url
 * code of our own. Each call answers { response } or { error } in plain words, never a throw.
 */
export const webauthnScript = String.raw`const supported =
  typeof window.PublicKeyCredential === 'function' &&
  typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function' &&
  typeof PublicKeyCredential.parseRequestOptionsFromJSON === 'function';

/** A new passkey (registration) from POST /auth/passkeys/register/options's answer. */
export function createPasskey(optionsJSON) {
  return ceremony(() => navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(optionsJSON) }));
}

/** An assertion by one of this site's passkeys (discoverable: the device lists them) from POST /auth/passkeys/login/options's answer. */
export function usePasskey(optionsJSON) {
  return ceremony(() => navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(optionsJSON) }));
}

async function ceremony(run) {
  if (!supported) return { error: 'This browser cannot use passkeys on this page. Use a current Chrome, Edge, Firefox or Safari.' };
  try {
    const credential = await run();
    if (!credential) return { error: 'No passkey was chosen. Try again.' };
    return { response: credential.toJSON() };
  } catch (error) {
    return { error: plainFailure(error) };
  }
}

function plainFailure(error) {
  switch (error && error.name) {
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
`;
