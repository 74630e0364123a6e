import type { OAuth2ProviderOptions, OAuthUserInfo, OidcProviderOptions } from '#svc/auth';
import { DemoConfigError } from '../demo-config.error.js';

/** The fields of a provider's userinfo JSON that the demo's mapper reads (`profile` of OAUTH2_PROVIDERS). */
export interface ProfileFields {
  id: string;
  email?: string;
  name?: string;
  avatar_url?: string;
  /** Absent: emails of this provider count as unverified, so they create no user. */
  email_verified?: string;
}

const DEFAULT_PROFILE_FIELDS: ProfileFields = { id: 'id', email: 'email', name: 'name', avatar_url: 'avatar_url', email_verified: 'email_verified' };

/** OAUTH2_PROVIDERS: `[{"name","client_id","client_secret","authorization_url","token_url","userinfo_url","scopes","profile":{...}}]`. */
export function readOAuth2Providers(raw: string | undefined): OAuth2ProviderOptions[] {
  return listOf('OAUTH2_PROVIDERS', raw).map((entry, i) => {
    const fields = { ...DEFAULT_PROFILE_FIELDS, ...objectAt('OAUTH2_PROVIDERS', i, entry.profile) } as ProfileFields;
    return {
      name: stringAt('OAUTH2_PROVIDERS', i, entry.name, 'name'),
      clientId: stringAt('OAUTH2_PROVIDERS', i, entry.client_id, 'client_id'),
      clientSecret: stringAt('OAUTH2_PROVIDERS', i, entry.client_secret, 'client_secret'),
      authorizationUrl: stringAt('OAUTH2_PROVIDERS', i, entry.authorization_url, 'authorization_url'),
      tokenUrl: stringAt('OAUTH2_PROVIDERS', i, entry.token_url, 'token_url'),
      userinfoUrl: stringAt('OAUTH2_PROVIDERS', i, entry.userinfo_url, 'userinfo_url'),
      scopes: entry.scopes as string[] | undefined,
      mapProfileToUser: mapProfileWith(fields),
    };
  });
}

/** OIDC_PROVIDERS: `[{"name","issuer","client_id","client_secret","scopes"}]`. */
export function readOidcProviders(raw: string | undefined): OidcProviderOptions[] {
  return listOf('OIDC_PROVIDERS', raw).map((entry, i) => ({
    name: stringAt('OIDC_PROVIDERS', i, entry.name, 'name'),
    issuer: stringAt('OIDC_PROVIDERS', i, entry.issuer, 'issuer'),
    clientId: stringAt('OIDC_PROVIDERS', i, entry.client_id, 'client_id'),
    clientSecret: stringAt('OIDC_PROVIDERS', i, entry.client_secret, 'client_secret'),
    scopes: entry.scopes as string[] | undefined,
  }));
}

/** The demo's profile mapper: reads the configured fields of the userinfo JSON, nothing else. */
export function mapProfileWith(fields: ProfileFields): OAuth2ProviderOptions['mapProfileToUser'] {
  return (profile, { provider }): OAuthUserInfo => ({
    provider,
    providerUserId: scalar(profile[fields.id]) ?? '',
    email: fields.email ? scalar(profile[fields.email]) : null,
    emailVerified: fields.email_verified ? profile[fields.email_verified] === true : false,
    name: fields.name ? scalar(profile[fields.name]) : null,
    avatarUrl: fields.avatar_url ? scalar(profile[fields.avatar_url]) : null,
  });
}

function scalar(value: unknown): string | null {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
}

function listOf(variable: string, raw: string | undefined): Record<string, unknown>[] {
  if (raw === undefined || raw === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new DemoConfigError(variable, 'must be a JSON list of provider objects');
  }
  if (!Array.isArray(parsed) || parsed.some((entry) => entry === null || typeof entry !== 'object' || Array.isArray(entry))) {
    throw new DemoConfigError(variable, 'must be a JSON list of provider objects');
  }
  return parsed as Record<string, unknown>[];
}

function objectAt(variable: string, index: number, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new DemoConfigError(`${variable}[${index}].profile`, 'must be an object of field names');
  return value as Record<string, unknown>;
}

function stringAt(variable: string, index: number, value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw new DemoConfigError(`${variable}[${index}].${field}`, 'is required (a string)');
  return value;
}
