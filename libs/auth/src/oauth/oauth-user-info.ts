import type { OAuthUserInfo } from '../config/oauth-options.js';
import { hasControlOrFormatCharacter, MAX_EMAIL_LENGTH } from '../users/email.js';

const FIELDS = ['provider', 'providerUserId', 'email', 'emailVerified', 'name', 'avatarUrl'] as const;

/**
 * `value` checked as the OAuthUserInfo of `provider` (from a provider, a mapper or a hook, so untrusted): its
 * fields are copied first and the copy is checked and returned, so a getter cannot answer the check
 * one value and the login another; an unknown field is refused, never dropped.
 */
export function checkedUserInfo(value: unknown, provider: string): { userInfo: OAuthUserInfo } | { problem: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problem: 'is not an object' };
  const unknown = Object.keys(value).find((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) return { problem: `has an unknown field ${JSON.stringify(unknown)}` };
  const { provider: named, providerUserId, email, emailVerified, name, avatarUrl } = value as Record<string, unknown>;
  if (named !== provider) return { problem: `provider must be "${provider}"` };
  if (!isCleanString(providerUserId, 255) || providerUserId === '') return { problem: `providerUserId ${mustBe('a non-empty string', 255)}` };
  if (email !== null && (!isCleanString(email, MAX_EMAIL_LENGTH) || hasControlOrFormatCharacter(email))) {
    return { problem: `email ${mustBe('null or a string', MAX_EMAIL_LENGTH)} and no control or format character` };
  }
  if (typeof emailVerified !== 'boolean') return { problem: 'emailVerified must be a boolean' };
  if (name !== null && !isCleanString(name, 1024)) return { problem: `name ${mustBe('null or a string', 1024)}` };
  if (avatarUrl !== null && !isCleanString(avatarUrl, 2048)) return { problem: `avatarUrl ${mustBe('null or a string', 2048)}` };
  return { userInfo: { provider, providerUserId, email, emailVerified, name, avatarUrl } };
}

function mustBe(kind: string, maxLength: number): string {
  return `must be ${kind} of at most ${maxLength} characters, well-formed and without NUL`;
}

function isCleanString(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length <= maxLength && value.isWellFormed() && !value.includes('\0');
}
