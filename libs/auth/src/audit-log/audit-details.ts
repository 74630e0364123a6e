/** What an entry's details may hold: a few named plain values (a method, a provider, a role, a count). */
export type AuditDetails = Readonly<Record<string, string | number | boolean | null>>;

/** Most keys an entry's details hold. */
const MAX_KEYS = 8;
/** Longest string value of the details (a provider name, a role, a passkey's name, a reason). */
const MAX_VALUE_LENGTH = 500;

/**
 * Words that, in a key name, say its value is a secret or a credential. OWASP ASVS 5.0 V16.2.5 and the
 * OWASP Logging Cheat Sheet ("data to exclude"): a log never holds a password, token, one-time code,
 * key or session identifier, so the writer refuses such a key outright instead of trusting each caller.
 */
const SECRET_WORDS = new Set([
  'pass', 'password', 'passwd', 'passphrase', 'pin', 'token', 'secret', 'code', 'otp', 'hash', 'salt', 'key', 'cookie',
  'session', 'sid', 'credential', 'credentials', 'challenge', 'assertion', 'signature', 'bearer', 'authorization', 'jwt', 'response',
]);

/** The words of a key name: `newPassword` → new, password; `api_key` → api, key; `passkeyId` → passkey, id. */
function wordsOf(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

export function isSecretKey(key: string): boolean {
  return wordsOf(key).some((word) => SECRET_WORDS.has(word));
}

/**
 * The details as the JSON text an entry stores, after checking them: a `TypeError` (a programming
 * error, never a user's input) for a secret-ish key, a nested value or an oversized one.
 */
export function auditDetailsText(details: AuditDetails | undefined): string {
  if (details === undefined) return '{}';
  const entries = Object.entries(details);
  if (entries.length > MAX_KEYS) throw new TypeError(`svc: audit details hold at most ${MAX_KEYS} keys`);
  for (const [key, value] of entries) {
    if (isSecretKey(key)) throw new TypeError(`svc: audit details never hold a secret; "${key}" looks like one`);
    const plain = value === null || typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= MAX_VALUE_LENGTH);
    if (!plain) throw new TypeError(`svc: audit detail "${key}" must be a string of at most ${MAX_VALUE_LENGTH} characters, a number, a boolean or null`);
  }
  return JSON.stringify(details);
}
