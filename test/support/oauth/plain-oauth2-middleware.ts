import type { ProviderContext, ProviderMiddleware } from 'oidc-provider';
import { PROVIDER_ROUTES } from './oidc-provider-options.js';

export interface ProtocolAdjustments {
  /** Add `openid` to authorization requests that lack it: oidc-provider's userinfo requires it. */
  addOpenidScope: boolean;
  /** Drop `id_token` from token responses. */
  dropIdToken: boolean;
  /** Drop the RFC 9207 `iss` parameter from authorization responses and its discovery flag. */
  dropAuthorizationResponseIss: boolean;
}

/**
 * Makes oidc-provider look like a plain OAuth 2.0 server, or one that predates RFC 9207, by
 * rewriting requests before it sees them and answers after it made them (oidc-provider's
 * documented pre- and post-middleware hook, `provider.use`).
 */
export function protocolAdjustments(issuer: string, adjust: ProtocolAdjustments): ProviderMiddleware {
  return async (ctx, next) => {
    if (adjust.addOpenidScope && ctx.method === 'GET' && ctx.path === PROVIDER_ROUTES.authorization) addOpenidScope(ctx);
    await next();
    if (adjust.dropAuthorizationResponseIss) dropIss(ctx, issuer);
    if (adjust.dropIdToken && ctx.path === PROVIDER_ROUTES.token && isRecord(ctx.body)) delete ctx.body.id_token;
  };
}

function addOpenidScope(ctx: ProviderContext): void {
  const query = new URLSearchParams(ctx.querystring);
  const scopes = (query.get('scope') ?? '').split(' ').filter(Boolean);
  if (scopes.includes('openid')) return;
  query.set('scope', ['openid', ...scopes].join(' '));
  ctx.querystring = query.toString();
}

function dropIss(ctx: ProviderContext, issuer: string): void {
  const location = ctx.response.get('location');
  if (location) {
    const url = new URL(location, issuer);
    if (url.searchParams.has('iss')) {
      url.searchParams.delete('iss');
      ctx.set('location', url.href);
    }
  }
  if (ctx.path === '/.well-known/openid-configuration' && isRecord(ctx.body)) {
    delete ctx.body.authorization_response_iss_parameter_supported;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
