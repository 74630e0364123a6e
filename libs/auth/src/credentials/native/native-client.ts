import type { Request } from 'express';
import type { AuthConfig } from '../../config/auth-config.js';
import type { TokenBody } from '../jwt/jwt-credential.issuer.js';

/** The header a native client (a mobile or desktop app) sends to be answered with tokens in the body. */
export const NATIVE_CLIENT_HEADER = 'x-svc-client';

/** The token body of a native client: the jwt token body and the refresh token, which no cookie carries. */
export interface NativeTokenBody extends TokenBody {
  refresh_token: string;
}

/**
 * Whether the request asks for the native answer (docs/guides/machine-access.md): only with
 * `nativeClients: true`, and only on a POST. A provider's callback is a GET, a top-level browser
 * navigation that answers with a redirect: a refresh token never travels in a URL (RFC 9700 §4.3.2),
 * so the header is ignored there and the browser credential is set.
 */
export function isNativeRequest(request: Request, config: AuthConfig): boolean {
  if (!config.nativeClients || request.method !== 'POST') return false;
  const value = request.headers[NATIVE_CLIENT_HEADER];
  return typeof value === 'string' && value.trim().toLowerCase() === 'native';
}
