import type { Configuration, ProviderClient, ProviderContext } from 'oidc-provider';
import { accountFinder } from './provider-accounts.js';
import type { ProviderStore } from './provider-store.js';
import { PROVIDER_ROUTES, type ProviderAccount, type ProviderClientOptions } from './oidc-provider-options.js';
import type { SigningKey } from './signing-keys.js';

export interface ProviderState {
  clients: ReadonlyMap<string, ProviderClientOptions>;
  accounts: ReadonlyMap<string, ProviderAccount>;
  /** Published in this order; oidc-provider signs with the first key of a suitable type. */
  keys: readonly SigningKey[];
  cookieKeys: readonly string[];
  store: ProviderStore;
  pkce: 'required' | 'optional';
}

const ASYMMETRIC_ID_TOKEN_ALGS = ['RS256', 'PS256', 'ES256', 'Ed25519', 'EdDSA'];

/** The oidc-provider configuration for one generation of the harness's provider. */
export function providerConfiguration(state: ProviderState): Configuration {
  const clients = [...state.clients.values()];
  const symmetric = clients.map((client) => client.id_token_signed_response_alg).filter((alg) => alg?.startsWith('HS'));
  return {
    clients: clients.map((client) => ({
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      ...client,
    })),
    jwks: { keys: state.keys.map((key) => structuredClone(key.privateJwk)) },
    cookies: { keys: [...state.cookieKeys] },
    adapter: state.store.adapter(),
    findAccount: accountFinder(state.accounts),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    // Scope-requested claims go into the id_token too (OIDC Core §5.4 puts them in userinfo only
    // when an access token is issued); ProviderAccount.emailOnlyInUserinfo takes them out again.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true }, userinfo: { enabled: true } },
    pkce: { required: () => state.pkce === 'required' },
    // A refresh token for every client allowed the grant, without asking for offline_access.
    issueRefreshToken: async (_ctx: unknown, client: ProviderClient) => client.grantTypeAllowed('refresh_token'),
    enabledJWA: { idTokenSigningAlgValues: [...ASYMMETRIC_ID_TOKEN_ALGS, ...new Set(symmetric)] },
    routes: PROVIDER_ROUTES,
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 86400,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    renderError,
  };
}

/** A plain error page whose text says what went wrong (BrowserAgent quotes it). */
async function renderError(ctx: ProviderContext, out: Record<string, unknown>): Promise<void> {
  ctx.type = 'html';
  const lines = Object.entries(out).map(([key, value]) => `${key}: ${escapeHtml(String(value))}`);
  ctx.body = `<!DOCTYPE html><html><head><title>oidc-provider error</title></head><body><h1>oops! something went wrong</h1><pre>${lines.join('\n')}</pre></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
