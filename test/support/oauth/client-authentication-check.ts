import type { ProviderMiddleware } from 'oidc-provider';
import type { ClientAuthentication } from './client-authentication.js';
import type { ProviderClientOptions } from './oidc-provider-options.js';

/** A token request oidc-provider answered, as the harness saw it. */
export interface ProviderTokenRequest {
  clientId?: string;
  grantType?: string;
  /** How the client authenticated: Basic header, client_secret in the body, or neither. */
  clientAuthentication: ClientAuthentication;
  /** Whether a `code_verifier` was sent (RFC 7636 §4.5). */
  codeVerifier: boolean;
  /** The status of the answer, after this check. */
  status: number;
}

/**
 * oidc-provider 9 accepts client_secret_basic and client_secret_post from a client registered
 * for either one (lib/shared/client_auth.js). This post-middleware records how each token request
 * authenticated and turns a success into 401 invalid_client when the method is not the one the
 * client registered (RFC 7591 §2 `token_endpoint_auth_method`). The check runs after oidc-provider
 * answered, so a refused request has spent its code, as any failed exchange does.
 */
export function clientAuthenticationCheck(clients: ReadonlyMap<string, ProviderClientOptions>, log: ProviderTokenRequest[]): ProviderMiddleware {
  return async (ctx, next) => {
    await next();
    if (ctx.oidc?.route !== 'token') return;
    const params = ctx.oidc.params ?? {};
    const clientId = ctx.oidc.client?.clientId;
    const used: ClientAuthentication = ctx.headers.authorization ? 'client_secret_basic' : params.client_secret ? 'client_secret_post' : 'none';
    const registered = clientId === undefined ? undefined : (clients.get(clientId)?.token_endpoint_auth_method ?? 'client_secret_basic');
    if (ctx.status === 200 && registered !== undefined && used !== registered) {
      ctx.status = 401;
      ctx.body = { error: 'invalid_client', error_description: `client authenticated with ${used}, registered for ${registered}` };
    }
    log.push({ clientId, grantType: params.grant_type as string | undefined, clientAuthentication: used, codeVerifier: params.code_verifier !== undefined, status: ctx.status });
  };
}
