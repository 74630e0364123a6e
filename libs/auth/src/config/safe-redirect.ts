const PROBE_ORIGIN = 'https://svc.invalid';

/**
 * `value` as a same-origin relative path, else null (OWASP Unvalidated Redirects and Forwards
 * Cheat Sheet). Refused: anything not starting with exactly one `/` (`//evil`, `https://evil`,
 * `javascript:`), a backslash, whitespace or a control character anywhere (browsers read `/\evil`
 * and `/\t/evil` as `//evil`), and encoded forms of those (`/%2F%2Fevil`, `/%5Cevil`), so that no
 * layer that decodes the path once more can turn it into another origin. The same rules hold for
 * the path after URL normalisation, which is what is sent: dot segments can collapse into a
 * leading `//` (`/.//evil`, `/a/..//evil`, `/%2e//evil`).
 */
export function safeRedirectPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  if (!isSingleSlashPathOnceDecoded(value)) return null;
  const url = new URL(value, PROBE_ORIGIN);
  if (url.origin !== PROBE_ORIGIN) return null;
  const normalised = `${url.pathname}${url.search}${url.hash}`;
  return isSingleSlashPathOnceDecoded(normalised) ? normalised : null;
}

function isSingleSlashPathOnceDecoded(path: string): boolean {
  if (!isSingleSlashPath(path)) return false;
  try {
    return isSingleSlashPath(decodeURIComponent(path));
  } catch {
    return false;
  }
}

function isSingleSlashPath(path: string): boolean {
  return path.startsWith('/') && !/^\/[/\\]/.test(path) && !/[\\\s\p{Cc}\p{Cf}]/u.test(path);
}
