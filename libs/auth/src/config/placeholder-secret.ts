const KNOWN_PLACEHOLDERS = [
  'your-secret-key', 'your_secret_key', 'yoursecretkey', 'signing_secret', 'signing-secret', 'supersecret',
  'changeme', 'change-me', 'change_me', 'replaceme', 'replace-me', 'development', 'password', 'mysecret',
  'my-secret', 'default', 'example', 'secret', 'token', 'test', 'todo', 'dev', 'xxx', 'key', 'jwt',
];

/**
 * A secret that is obviously not random: a template like `<SIGNING_SECRET>` or `${JWT_SECRET}`,
 * little more than placeholder words (`changeme`, `your-secret-key`, repeated or padded), a short
 * pattern repeated, or too few distinct characters.
 */
export function isPlaceholderSecret(secret: string): boolean {
  const trimmed = secret.trim();
  if (/^<[^>]*>$/.test(trimmed) || /^\$\{[^}]*\}$/.test(trimmed) || /^\{\{[^}]*\}\}$/.test(trimmed)) return true;
  let rest = trimmed.toLowerCase();
  for (const word of KNOWN_PLACEHOLDERS) rest = rest.split(word).join('');
  rest = rest.replace(/[^a-z0-9]/g, '');
  if (rest.length < 16 || new Set(rest).size < 6) return true;
  for (let size = 1; size <= 8; size++) {
    if (trimmed.length % size === 0 && trimmed.slice(0, size).repeat(trimmed.length / size) === trimmed) return true;
  }
  return new Set(trimmed).size < 10;
}
