import { hasControlOrFormatCharacter, MAX_EMAIL_LENGTH } from '../../users/email.js';

/**
 * Who a provider says the user is: from a verified id_token (oidc) or from the application's
 * profile mapper (oauth2). Provider fields such as `email_verified` and `avatar_url` are
 * camelCase here (`emailVerified`, `avatarUrl`), like every name a TypeScript user reads.
 */
export interface OAuthUserInfo {
  /** The provider's name, as configured. */
  provider: string;
  /** The provider's identifier of the user, as a string (at most 255 characters). */
  providerUserId: string;
  email: string | null;
  /** No user is created from an email that is not verified (README, "Accounts"). */
  emailVerified: boolean;
  name: string | null;
  avatarUrl: string | null;
}

/** What is wrong with a value that should be the OAuthUserInfo of `provider`, or undefined. */
export function userInfoProblem(value: unknown, provider: string): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'is not an object';
  const info = value as Record<string, unknown>;
  if (info.provider !== provider) return `provider must be "${provider}"`;
  if (!isCleanString(info.providerUserId, 255) || info.providerUserId === '') return 'providerUserId must be a non-empty string of at most 255 characters';
  if (info.email !== null && (!isCleanString(info.email, MAX_EMAIL_LENGTH) || hasControlOrFormatCharacter(info.email))) return 'email must be a string or null';
  if (typeof info.emailVerified !== 'boolean') return 'emailVerified must be a boolean';
  if (info.name !== null && !isCleanString(info.name, 1024)) return 'name must be a string or null';
  if (info.avatarUrl !== null && !isCleanString(info.avatarUrl, 2048)) return 'avatarUrl must be a string or null';
  const known = new Set(['provider', 'providerUserId', 'email', 'emailVerified', 'name', 'avatarUrl']);
  const unknown = Object.keys(info).find((key) => !known.has(key));
  return unknown === undefined ? undefined : `has an unknown field ${JSON.stringify(unknown)}`;
}

/** The fields of an OAuthUserInfo, copied: nothing else of the value goes on. */
export function copyUserInfo(info: OAuthUserInfo): OAuthUserInfo {
  const { provider, providerUserId, email, emailVerified, name, avatarUrl } = info;
  return { provider, providerUserId, email, emailVerified, name, avatarUrl };
}

function isCleanString(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length <= maxLength && value.isWellFormed() && !value.includes('\0');
}
