/**
 * Reads the pages of oidc-provider's `features.devInteractions`: a login form (hidden
 * `prompt=login`, fields `login` and `password`), a consent form (hidden `prompt=consent`), each
 * with a "[ Cancel ]" link to the interaction's abort URL.
 */
export interface InteractionPage {
  prompt: 'login' | 'consent';
  submitUrl: URL;
  abortUrl?: URL;
}

export function readInteractionPage(html: string, pageUrl: URL): InteractionPage | undefined {
  const action = /<form\b[^>]*\baction="([^"]*)"/i.exec(html)?.[1];
  const prompt = /<input\b[^>]*\bname="prompt"[^>]*\bvalue="([^"]*)"/i.exec(html)?.[1];
  if (action === undefined || (prompt !== 'login' && prompt !== 'consent')) return undefined;
  const abort = /<a\b[^>]*\bhref="([^"]*\/abort)"/i.exec(html)?.[1];
  return {
    prompt,
    submitUrl: new URL(decodeEntities(action), pageUrl),
    abortUrl: abort === undefined ? undefined : new URL(decodeEntities(abort), pageUrl),
  };
}

/** The visible text of a page, shortened: enough to say why a walk stopped. */
export function pageText(html: string, limit = 300): string {
  const text = decodeEntities(
    html
      .replace(/<(style|script)\b[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] !== '#') return NAMED[body.toLowerCase()] ?? entity;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return String.fromCodePoint(code);
  });
}
