import { algorithmOf, compactJws, type JwsSigner } from './compact-jws.js';
import type { AuthorizationRecord, Identity, IdTokenScript } from './hostile-script.js';
import { withOverrides } from './overrides.js';
import type { SigningKey } from './signing-keys.js';

export interface IdTokenParties {
  issuer: string;
  clientId: string;
  clientSecret: string;
  providerKey: SigningKey;
  foreignKey: SigningKey;
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
export function scriptedIdToken(parties: IdTokenParties, script: IdTokenScript, defaultClaims: Record<string, unknown>): string {
  const signature = script.signature ?? 'provider-key';
  const signer: JwsSigner =
    signature === 'none'
      ? { kind: 'none' }
      : signature === 'client-secret'
        ? { kind: 'hmac-sha256', secret: parties.clientSecret }
        : { kind: 'key', key: signature === 'foreign-key' ? parties.foreignKey : parties.providerKey };
  const header =
    signer.kind === 'none'
      ? { alg: 'none', typ: 'JWT' }
      : signer.kind === 'hmac-sha256'
        ? { alg: 'HS256', typ: 'JWT' }
        : { alg: algorithmOf(signer.key), typ: 'JWT', kid: parties.providerKey.kid };
  return compactJws(withOverrides(header, script.header), withOverrides(defaultClaims, script.claims), signer);
}
