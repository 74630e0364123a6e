/**
 * An error as a log line may show it: name and message, with every known secret masked, since a
 * message may quote a payload (OWASP Logging Cheat Sheet: never log credentials). No stack: it can
 * hold values too.
 */
export function describeError(error: unknown, secrets: readonly string[] = []): string {
  let text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  for (const secret of secrets) if (secret.length > 0) text = text.split(secret).join('**********');
  return text;
}
