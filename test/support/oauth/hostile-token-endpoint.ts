import type { ServerResponse } from 'node:http';
import type { HostileGrants } from './hostile-grants.js';
import type { AuthorizationRecord, HostileScript, IdTokenScript, TokenRecord } from './hostile-script.js';
import { type JsonSender, sendJson } from './http-io.js';
import { withOverrides } from './overrides.js';

export interface TokenEndpointParts {
  /** How the successful answer is sent (an `oversized` fault pads it). */
  send: JsonSender;
  grants: HostileGrants;
  script: HostileScript;
  mode: 'oidc' | 'oauth2';
  signIdToken(script: IdTokenScript, request: AuthorizationRecord | undefined): Promise<string>;
}

/**
 * The token endpoint's honest part (RFC 6749 §4.1.3, §5.1, §5.2: client authentication, a single
 * use code bound to its redirect_uri, PKCE), then the scripted body: the id_token and overrides.
 */
export async function answerTokenRequest(response: ServerResponse, params: Record<string, string>, record: TokenRecord, parts: TokenEndpointParts): Promise<void> {
  if (record.clientAuthentication === 'none' || record.clientAuthentication === 'both' || !record.clientSecretValid) {
    const challenge: Record<string, string> = record.clientAuthentication === 'client_secret_basic' ? { 'WWW-Authenticate': 'Basic realm="token"' } : {};
    return sendJson(response, 401, { error: 'invalid_client', error_description: 'client authentication failed' }, challenge);
  }
  let authorization: AuthorizationRecord | undefined;
  if (params.grant_type === 'authorization_code') {
    const redemption = parts.grants.redeem(params, parts.script.reusableCodes === true);
    if (!redemption.ok) return sendJson(response, 400, { error: redemption.error, error_description: redemption.description });
    authorization = redemption.request;
  } else if (params.grant_type === 'refresh_token') {
    if (!parts.grants.useRefreshToken(params.refresh_token)) return sendJson(response, 400, { error: 'invalid_grant', error_description: 'unknown refresh token' });
  } else {
    return sendJson(response, 400, { error: 'unsupported_grant_type' });
  }
  const body: Record<string, unknown> = { ...parts.grants.issueTokens(), token_type: 'Bearer', expires_in: 3600, scope: authorization?.query.scope };
  const idToken = idTokenScript(parts, authorization, params.grant_type);
  if (idToken !== 'omit') body.id_token = await parts.signIdToken(idToken, authorization);
  parts.send(response, 200, withOverrides(body, parts.script.tokenResponse));
}

function idTokenScript(parts: TokenEndpointParts, authorization: AuthorizationRecord | undefined, grantType: string): IdTokenScript | 'omit' {
  const scripted = parts.script.idToken;
  if (typeof scripted === 'function') return scripted(authorization);
  if (scripted !== undefined) return scripted;
  // OIDC Core §12.2: a refresh need not carry a new id_token; this provider sends none then.
  return parts.mode === 'oidc' && grantType === 'authorization_code' ? {} : 'omit';
}
