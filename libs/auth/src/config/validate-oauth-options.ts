import { AuthConfigError } from './auth-config.error.js';
import type { OAuth2ProviderConfig, OAuthProviderConfigBase, OAuthSectionConfig, OidcProviderConfig } from './oauth-config.js';
import type { OAuth2ProviderOptions, OAuthProviderOptionsBase, OAuthSectionOptions, OidcProviderOptions, OidcSigningAlgorithm } from './oauth-options.js';
import { bool, int, nonEmptyString, oneOf, providerUrl, secret, stringList } from './option-rules.js';
import { isObviousPlaceholder } from './placeholder-secret.js';
import { safeRedirectPath } from './safe-redirect.js';
import { deriveKey } from '../crypto/derive-key.js';

const SIGNING_ALGORITHMS: readonly OidcSigningAlgorithm[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'Ed25519', 'EdDSA'];

/** Where the callback of a provider is mounted: the only redirect URI a provider entry may name. */
export interface CallbackBase {
  baseUrl: string;
  prefix: string;
}

/** What a section's own secret falls back to, and whether the strategy shorthand (with its legacy `strategy` field) is in use. */
export interface OAuthSecrets {
  moduleSecret: string | undefined;
  shorthand: boolean;
}

export function validateOAuth2Section(options: OAuthSectionOptions<OAuth2ProviderOptions> | undefined, callbacks: CallbackBase, secrets: OAuthSecrets): OAuthSectionConfig<OAuth2ProviderConfig> {
  return section('oauth2', options, secrets, (field, entry) => {
    const authorizationUrl = providerUrl(`${field}.authorizationUrl`, entry.authorizationUrl);
    if (typeof entry.mapProfileToUser !== 'function') throw new AuthConfigError(`${field}.mapProfileToUser`, 'is required (an async function from the profile to an OAuthUserInfo)');
    return {
      ...common('oauth2', field, entry, callbacks, []),
      authorizationUrl: authorizationUrl.href,
      tokenUrl: providerUrl(`${field}.tokenUrl`, entry.tokenUrl).href,
      userinfoUrl: providerUrl(`${field}.userinfoUrl`, entry.userinfoUrl).href,
      issuer: entry.issuer === undefined ? authorizationUrl.origin : issuerOf(`${field}.issuer`, entry.issuer),
      mapProfileToUser: entry.mapProfileToUser,
    };
  });
}

export function validateOidcSection(options: OAuthSectionOptions<OidcProviderOptions> | undefined, callbacks: CallbackBase, secrets: OAuthSecrets): OAuthSectionConfig<OidcProviderConfig> {
  return section('oidc', options, secrets, (field, entry) => {
    const base = common('oidc', field, entry, callbacks, ['openid', 'email', 'profile']);
    // OpenID Connect Core §3.1.2.1: without the openid scope the request is plain OAuth 2.0.
    if (!base.scopes.includes('openid')) throw new AuthConfigError(`${field}.scopes`, 'must include "openid"');
    return {
      ...base,
      issuer: issuerOf(`${field}.issuer`, entry.issuer),
      idTokenSigningAlg: oneOf(`${field}.idTokenSigningAlg`, entry.idTokenSigningAlg, 'RS256', SIGNING_ALGORITHMS),
    };
  });
}

function section<O extends OAuthProviderOptionsBase, P extends OAuthProviderConfigBase>(
  method: 'oauth2' | 'oidc',
  options: OAuthSectionOptions<O> | undefined,
  secrets: OAuthSecrets,
  provider: (field: string, entry: O) => P,
): OAuthSectionConfig<P> {
  if (!options) throw new AuthConfigError(method, secrets.shorthand ? `is required for the ${method} strategy` : `is required for the ${method} login method`);
  // The credential is named once, by the module's credential; the section's own field belongs to the shorthand.
  if (!secrets.shorthand && options.strategy !== undefined) {
    throw new AuthConfigError(`${method}.strategy`, "belongs to the strategy shorthand: name the credential once, with AuthModule's credential option");
  }
  if (!Array.isArray(options.providers) || options.providers.length === 0) throw new AuthConfigError(`${method}.providers`, 'must list at least one provider');
  const providers = options.providers.map((entry, i) => provider(`${method}.providers[${i}]`, entry ?? ({} as O)));
  const names = new Set<string>();
  for (const [i, { name }] of providers.entries()) {
    if (names.has(name)) throw new AuthConfigError(`${method}.providers[${i}].name`, `"${name}" is used twice`);
    names.add(name);
  }
  const postLoginRedirect = sameOriginPath(`${method}.postLoginRedirect`, options.postLoginRedirect ?? '/');
  const errorRedirect = options.errorRedirect === undefined ? undefined : sameOriginPath(`${method}.errorRedirect`, options.errorRedirect);
  if (options.secretKey === undefined && secrets.moduleSecret === undefined) throw new AuthConfigError(`${method}.secretKey`, 'is required (or give the module a secret to derive it from)');
  return {
    secretKey: options.secretKey === undefined ? deriveKey(secrets.moduleSecret!, `${method} state`) : secret(`${method}.secretKey`, options.secretKey),
    stateTtlSeconds: int(`${method}.stateTtlSeconds`, options.stateTtlSeconds, 600, 60, 3600),
    postLoginRedirect,
    errorRedirect,
    providerTimeoutSeconds: int(`${method}.providerTimeoutSeconds`, options.providerTimeoutSeconds, 5, 1, 30),
    providers,
  };
}

function common(method: 'oauth2' | 'oidc', field: string, entry: OAuthProviderOptionsBase, callbacks: CallbackBase, defaultScopes: readonly string[]): OAuthProviderConfigBase {
  const name = nonEmptyString(`${field}.name`, entry.name, 64);
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new AuthConfigError(`${field}.name`, 'must hold only letters, digits, "-" and "_" (it is part of a URL path)');
  const clientSecret = nonEmptyString(`${field}.clientSecret`, entry.clientSecret);
  if (isObviousPlaceholder(clientSecret)) throw new AuthConfigError(`${field}.clientSecret`, 'is a placeholder value; use the secret the provider issued');
  const callback = `${callbacks.baseUrl}${callbacks.prefix}/${method}/${name}/callback`;
  if (entry.redirectUri !== undefined && entry.redirectUri !== callback) {
    throw new AuthConfigError(`${field}.redirectUri`, `must be this module's callback, ${callback} (or be left out)`);
  }
  if (entry.mapProfileToColumns !== undefined && typeof entry.mapProfileToColumns !== 'function') {
    throw new AuthConfigError(`${field}.mapProfileToColumns`, 'must be a function from the profile and the identity to column values');
  }
  return {
    name,
    clientId: nonEmptyString(`${field}.clientId`, entry.clientId, 255),
    clientSecret,
    scopes: stringList(`${field}.scopes`, entry.scopes, defaultScopes),
    pkce: bool(`${field}.pkce`, entry.pkce, true),
    tokenEndpointAuthMethod: oneOf(`${field}.tokenEndpointAuthMethod`, entry.tokenEndpointAuthMethod, 'client_secret_basic', ['client_secret_basic', 'client_secret_post'] as const),
    redirectUri: callback,
    ...(entry.mapProfileToColumns ? { mapProfileToColumns: entry.mapProfileToColumns } : {}),
  };
}

/** An issuer identifier: an https URL (loopback http allowed) without query or fragment (RFC 8414 §2). */
function issuerOf(field: string, value: unknown): string {
  const url = providerUrl(field, value);
  if (url.search || url.hash) throw new AuthConfigError(field, 'must have no query or fragment');
  return String(value);
}

function sameOriginPath(field: string, value: unknown): string {
  if (safeRedirectPath(value) !== value) throw new AuthConfigError(field, 'must be a same-origin relative path (such as "/" or "/app")');
  return value as string;
}
