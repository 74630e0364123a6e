/**
 * callback-error: a provider callback that failed lands on `/?error=<CODE>` (`errorRedirect`);
 * the code leaves the address bar and the library's message of it (/demo/callback-errors.json) is
 * what the page shows. An unknown code shows a fixed sentence, never the text of the address.
 */
const UNKNOWN = 'Signing in with the provider did not work. Try again.';

/** The address's ?error= code (null without one); the address loses it at once. */
export function takeCallbackErrorCode(): string | null {
  const query = new URLSearchParams(location.search);
  const code = query.get('error');
  if (code === null) return null;
  query.delete('error');
  const rest = query.toString();
  history.replaceState(null, '', location.pathname + (rest ? '?' + rest : '') + location.hash);
  return code;
}

/** The message of a callback's error code. */
export async function callbackMessage(code: string): Promise<string> {
  try {
    const response = await fetch('/demo/callback-errors.json', { headers: { Accept: 'application/json' } });
    const messages = response.ok ? ((await response.json()) as Record<string, string>) : {};
    return Object.hasOwn(messages, code) ? messages[code] : UNKNOWN;
  } catch {
    return UNKNOWN;
  }
}
