import { isoCBOR } from '@simplewebauthn/server/helpers';
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A test-only WebAuthn authenticator in software: genuine 'none' attestations and assertions
 * (WebAuthn L2 §6.1 authenticator data, §6.5.4 attestation object, §8.7 'none' format) signed with
 * node:crypto ES256 keys, so that tests drive the passkey routes through HTTP as a browser would.
 * Discoverable credentials only (a login names no user). CBOR comes from @simplewebauthn/server's
 * own encoder; nothing here verifies anything.
 */

/** Authenticator data flags (WebAuthn L2 §6.1). */
const FLAG = { userPresent: 0x01, userVerified: 0x04, backupEligible: 0x08, backedUp: 0x10, attestedCredential: 0x40 } as const;
/** COSE (RFC 9053 §7.1, RFC 9052 §7): kty EC2, alg ES256, crv P-256. */
const COSE = { kty: 1, alg: 3, crv: -1, x: -2, y: -3, EC2: 2, ES256: -7, P256: 1 } as const;

export interface StoredCredential {
  id: string;
  rpId: string;
  /** The user handle the creation options gave, base64url. */
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

export interface CeremonyChoices {
  /** The page's origin the browser writes into clientDataJSON. @default `https://<rp id>` */
  origin?: string;
  /** Whether the user was verified (a PIN, a fingerprint). @default true */
  userVerified?: boolean;
  /** The signature counter to report instead of the next one. */
  counter?: number;
  /** Signs with this key instead of the credential's (a forgery). */
  signWith?: KeyObject;
  /** Answers for this credential instead of the newest one for the rp id; at creation, offers it again (an authenticator ignoring excludeCredentials). */
  credentialId?: string;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];

  /** `synced`: a multi-device passkey, backed up (a password manager's), as its flags say (WebAuthn L2 §6.1.3). */
  constructor(private readonly settings: { synced?: boolean } = {}) {}

  /** `navigator.credentials.create()` on `options` (the JSON the server sent), as `PublicKeyCredential.toJSON()`. */
  create(options: CreationOptions, choices: CeremonyChoices = {}): Record<string, unknown> {
    const rpId = options.rp.id!;
    const again = this.credentials.find((candidate) => candidate.id === choices.credentialId);
    const privateKey = again?.privateKey ?? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const id = again?.id ?? randomBytes(16).toString('base64url');
    const credential: StoredCredential = { id, rpId, userHandle: options.user.id, privateKey, counter: choices.counter ?? 0 };
    const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [COSE.kty, COSE.EC2],
        [COSE.alg, COSE.ES256],
        [COSE.crv, COSE.P256],
        [COSE.x, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [COSE.y, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
    const idBytes = Buffer.from(id, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(idBytes.length);
    const attested = Buffer.concat([Buffer.alloc(16) /* AAGUID: none */, idLength, idBytes, coseKey]);
    const authData = Buffer.concat([this.authenticatorData(rpId, credential.counter, choices, FLAG.attestedCredential), attested]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    if (!again) this.credentials.push(credential);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: clientData('webauthn.create', options.challenge, choices.origin ?? `https://${rpId}`),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** `navigator.credentials.get()` on `options` with a discoverable credential, as `PublicKeyCredential.toJSON()`. */
  get(options: RequestOptions, choices: CeremonyChoices = {}): Record<string, unknown> {
    const rpId = options.rpId!;
    const credential = choices.credentialId
      ? this.credentials.find((candidate) => candidate.id === choices.credentialId)
      : this.credentials.filter((candidate) => candidate.rpId === rpId).at(-1);
    if (!credential) throw new Error(`no credential for ${rpId}`);
    credential.counter = choices.counter ?? credential.counter + 1;
    const authData = this.authenticatorData(rpId, credential.counter, choices, 0);
    const clientDataJSON = clientData('webauthn.get', options.challenge, choices.origin ?? `https://${rpId}`);
    const signed = Buffer.concat([authData, createHash('sha256').update(Buffer.from(clientDataJSON, 'base64url')).digest()]);
    // WebAuthn L2 §6.3.3 step 11: the signature over authenticatorData || SHA-256(clientDataJSON), ECDSA in ASN.1 DER.
    const signature = sign('sha256', signed, choices.signWith ?? credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private authenticatorData(rpId: string, counter: number, choices: CeremonyChoices, extraFlags: number): Buffer {
    const backup = this.settings.synced ? FLAG.backupEligible | FLAG.backedUp : 0;
    const flags = FLAG.userPresent | (choices.userVerified === false ? 0 : FLAG.userVerified) | backup | extraFlags;
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), counterBytes]);
  }
}

/** A fresh P-256 key that belongs to no credential: what a forger holds. */
export function strangerKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}

function clientData(type: string, challenge: string, origin: string): string {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString('base64url');
}
