import { timingSafeEqual } from 'node:crypto';

/** How a token request authenticated its client (RFC 6749 §2.3.1); 'both' is refused by any server. */
export type ClientAuthentication = 'client_secret_basic' | 'client_secret_post' | 'none' | 'both';

export interface PresentedClient {
  method: ClientAuthentication;
  clientId?: string;
  clientSecret?: string;
}

/**
 * How a token request authenticates its client (RFC 6749 §2.3.1): HTTP Basic with the
 * form-urlencoded id and secret, or `client_id` and `client_secret` in the body; both at once is
 * reported as 'both' (the client MUST NOT use more than one method).
 */
export function presentedClient(authorization: string | undefined, params: Record<string, string>): PresentedClient {
  const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
  const inBody = params.client_secret !== undefined;
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return {
      method: inBody ? 'both' : 'client_secret_basic',
      clientId: formDecode(colon < 0 ? decoded : decoded.slice(0, colon)),
      clientSecret: colon < 0 ? undefined : formDecode(decoded.slice(colon + 1)),
    };
  }
  if (inBody) return { method: 'client_secret_post', clientId: params.client_id, clientSecret: params.client_secret };
  return { method: 'none', clientId: params.client_id };
}

function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

export function sameSecret(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
