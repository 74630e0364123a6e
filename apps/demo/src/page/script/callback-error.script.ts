/**
 * /demo/callback-error.js, built from the library's messages: a provider callback that failed
 * lands on `/?error=<CODE>` (`errorRedirect`); the code leaves the address bar and its message is
 * what the page shows. An unknown code shows a fixed sentence, never the text of the address.
 */
export function callbackErrorScript(messages: Readonly<Record<string, string>>): string {
  return String.raw`const MESSAGES = ${JSON.stringify(messages)};

/** The message of the address's ?error= code (null without one), and the address without it. */
export function takeCallbackError() {
  const query = new URLSearchParams(location.search);
  if (!query.has('error')) return null;
  const code = query.get('error');
  query.delete('error');
  const rest = query.toString();
  history.replaceState(null, '', location.pathname + (rest ? '?' + rest : '') + location.hash);
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : 'Signing in with the provider did not work. Try again.';
}
`;
}
