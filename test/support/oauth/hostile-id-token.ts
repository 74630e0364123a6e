import { algorithmOf, compactJws, type JwsSigner } from './compact-jws.js';
import type { AuthorizationRecord, Identity, IdTokenScript } from './hostile-script.js';
import { withOverrides } from './overrides.js';
import type { SigningKey } from './signing-keys.js';

export interface IdTokenParties {
  issuer: string;
  clientId: string;
  clientSecret: string;
  providerKey: SigningKey;
  /** Made on first use: an RSA key takes a while to generate, and most tests never need it. */
  foreignKey: () => Promise<SigningKey>;
}

/**
 * The default claims of an id_token (OIDC Core §2) for `identity`, echoing the nonce of the
 * authorization request it answers (§3.1.3.7 step 11), valid for ten minutes.
 */
export function defaultIdTokenClaims(parties: IdTokenParties, identity: Identity, request: AuthorizationRecord | undefined, nowSeconds: number): Record<string, unknown> {
  const claims: Record<string, unknown> = { iss: parties.issuer, aud: parties.clientId, exp: nowSeconds + 600, iat: nowSeconds, ...identity };
  if (request?.query.nonce !== undefined) claims.nonce = request.query.nonce;
  return claims;
}

/** Signs an id_token as the script says, on top of the default claims. */
export async function scriptedIdToken(parties: IdTokenParties, script: IdTokenScript, defaultClaims: Record<string, unknown>): Promise<string> {
  const signature = script.signature ?? 'provider-key';
  const signer: JwsSigner =
    signature === 'none'
      ? { kind: 'none' }
      : signature === 'client-secret'
        ? { kind: 'hmac-sha256', secret: parties.clientSecret }
        : { kind: 'key', key: signature === 'foreign-key' ? await parties.foreignKey() : parties.providerKey };
  const header =
    signer.kind === 'none'
      ? { alg: 'none', typ: 'JWT' }
      : signer.kind === 'hmac-sha256'
        ? { alg: 'HS256', typ: 'JWT' }
        : { alg: algorithmOf(signer.key), typ: 'JWT', kid: parties.providerKey.kid };
  return compactJws(withOverrides(header, script.header), withOverrides(defaultClaims, script.claims), signer);
}
