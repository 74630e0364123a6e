import type { JwtCredential } from '../jwt/jwt-credential.issuer.js';
import type { NativeTokenBody } from './native-client.js';

/** A jwt credential staged for a native client: delivered in the JSON body, never in a cookie. */
export class NativeCredential {
  constructor(readonly jwt: JwtCredential) {}

  get body(): NativeTokenBody {
    return nativeTokenBody(this.jwt);
  }
}

/** `{ access_token, token_type, expires_in, refresh_token }`: the refresh token is this answer's own (the one being issued). */
export function nativeTokenBody(credential: JwtCredential): NativeTokenBody {
  return { access_token: credential.access.token, token_type: 'bearer', expires_in: credential.access.expiresIn, refresh_token: credential.refresh.token };
}
