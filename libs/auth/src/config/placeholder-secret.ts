const KNOWN_PLACEHOLDERS = [
  'changeme', 'change-me', 'change_me', 'secret', 'your-secret-key', 'your_secret_key', 'yoursecretkey',
  'signing_secret', 'signing-secret', 'mysecret', 'my-secret', 'password', 'default', 'example',
  'replaceme', 'replace-me', 'todo', 'xxx', 'test', 'dev', 'development', 'supersecret',
];

/**
 * A secret that is obviously not random: a known placeholder word (also when repeated or padded
 * with digits), a template like `<SIGNING_SECRET>`, or a short pattern repeated.
 */
export function isPlaceholderSecret(secret: string): boolean {
  const lowered = secret.toLowerCase();
  if (/^<[^>]*>$/.test(secret.trim()) || /^\$\{[^}]*\}$/.test(secret.trim())) return true;
  const letters = lowered.replace(/[^a-z]/g, '');
  if (KNOWN_PLACEHOLDERS.some((word) => letters.length > 0 && isRepetitionOf(letters, word.replace(/[^a-z]/g, '')))) {
    return true;
  }
  if (KNOWN_PLACEHOLDERS.some((word) => lowered.includes(word) && lowered.replace(word, '').length < 8)) return true;
  for (let size = 1; size <= 8; size++) {
    if (secret.length % size === 0 && isRepetitionOf(secret, secret.slice(0, size))) return true;
  }
  return new Set(secret).size < 8;
}

function isRepetitionOf(text: string, unit: string): boolean {
  return unit.length > 0 && text.length % unit.length === 0 && unit.repeat(text.length / unit.length) === text;
}
