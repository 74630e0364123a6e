const PROBE_ORIGIN = 'https://svc.invalid';

/**
 * `value` if it is a same-origin relative path, else null (OWASP Unvalidated Redirects and
 * Forwards Cheat Sheet). Refused: anything not starting with exactly one `/` (`//evil`,
 * `https://evil`, `javascript:`), a backslash, whitespace or a control character anywhere
 * (browsers read `/\evil` and `/\t/evil` as `//evil`), and encoded forms of those (`/%2F%2Fevil`,
 * `/%5Cevil`), so that no layer that decodes the path once more can turn it into another origin.
 */
export function safeRedirectPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  if (!isSingleSlashPath(value)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  if (!isSingleSlashPath(decoded)) return null;
  const url = new URL(value, PROBE_ORIGIN);
  return url.origin === PROBE_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : null;
}

function isSingleSlashPath(path: string): boolean {
  return path.startsWith('/') && !/^\/[/\\]/.test(path) && !/[\\\s\p{Cc}\p{Cf}]/u.test(path);
}
