/**
 * The shape of the `response` field of the passkey routes: a `PublicKeyCredential` as JSON
 * (WebAuthn L3 §5.1.8, `toJSON()`; what @simplewebauthn/browser returns). Checked here so that a
 * value of the wrong type is a 400 like any other field, never a 500 in the verifier; the
 * cryptographic checks are the verifier's. The value passed on holds the known members only.
 */

/** The transports WebAuthn L3 §5.8.4 names; others a browser may add later are dropped, not refused. */
const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
type Transport = (typeof TRANSPORTS)[number];
/** A base64url member: no padding (WebAuthn L3 §5.1.8), bounded. */
const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** A credential id is at most 1023 bytes (WebAuthn L2 §5.8.3). */
const MAX_ID_CHARACTERS = 1364;
/** Bounds far above real authenticators' output; the body limit bounds the whole request anyway. */
const MAX_MEMBER_CHARACTERS = 16_384;

interface CredentialJson<R> {
  id: string;
  rawId: string;
  type: 'public-key';
  response: R;
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment?: 'platform' | 'cross-platform';
}

/** A registration (`navigator.credentials.create()`) as JSON. */
export type WebAuthnRegistrationJson = CredentialJson<{ clientDataJSON: string; attestationObject: string; transports?: Transport[] }>;

/** An assertion (`navigator.credentials.get()`) as JSON. */
export type WebAuthnAssertionJson = CredentialJson<{ clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string }>;

/** The registration in `value`, its known members only; undefined when it has not the shape of one. */
export function registrationJsonOf(value: unknown): WebAuthnRegistrationJson | undefined {
  const credential = credentialOf(value);
  const response = credential && objectOf(credential.response);
  if (!credential || !response) return undefined;
  const clientDataJSON = base64url(response.clientDataJSON);
  const attestationObject = base64url(response.attestationObject);
  if (clientDataJSON === undefined || attestationObject === undefined) return undefined;
  const transports = response.transports;
  if (transports !== undefined && (!Array.isArray(transports) || transports.length > 16 || transports.some((item) => typeof item !== 'string'))) return undefined;
  const known = (transports ?? []).filter((item): item is Transport => TRANSPORTS.includes(item as Transport));
  return { ...credential.base, response: { clientDataJSON, attestationObject, transports: [...new Set(known)] } };
}

/** The assertion in `value`, its known members only; undefined when it has not the shape of one. */
export function assertionJsonOf(value: unknown): WebAuthnAssertionJson | undefined {
  const credential = credentialOf(value);
  const response = credential && objectOf(credential.response);
  if (!credential || !response) return undefined;
  const clientDataJSON = base64url(response.clientDataJSON);
  const authenticatorData = base64url(response.authenticatorData);
  const signature = base64url(response.signature);
  if (clientDataJSON === undefined || authenticatorData === undefined || signature === undefined) return undefined;
  const userHandle = response.userHandle === undefined || response.userHandle === null ? undefined : base64url(response.userHandle);
  if (userHandle === undefined && response.userHandle !== undefined && response.userHandle !== null) return undefined;
  return { ...credential.base, response: { clientDataJSON, authenticatorData, signature, ...(userHandle === undefined ? {} : { userHandle }) } };
}

function credentialOf(value: unknown): { base: Omit<CredentialJson<never>, 'response'>; response: unknown } | undefined {
  const credential = objectOf(value);
  if (!credential) return undefined;
  const id = base64url(credential.id, MAX_ID_CHARACTERS);
  const rawId = base64url(credential.rawId, MAX_ID_CHARACTERS);
  if (!id || rawId === undefined || credential.type !== 'public-key') return undefined;
  const extensions = credential.clientExtensionResults;
  if (extensions !== undefined && !objectOf(extensions)) return undefined;
  const attachment = credential.authenticatorAttachment;
  if (attachment !== undefined && attachment !== null && attachment !== 'platform' && attachment !== 'cross-platform') return undefined;
  return {
    // The extension outputs are not read: svc asks for no extension.
    base: { id, rawId, type: 'public-key', clientExtensionResults: {}, ...(attachment ? { authenticatorAttachment: attachment } : {}) },
    response: credential.response,
  };
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function base64url(value: unknown, maxLength = MAX_MEMBER_CHARACTERS): string | undefined {
  return typeof value === 'string' && value.length <= maxLength && BASE64URL.test(value) ? value : undefined;
}
