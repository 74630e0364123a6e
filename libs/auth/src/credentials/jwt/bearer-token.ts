import type { Request } from 'express';

/** Longer than any access token the library mints; a bigger one is not worth parsing. */
const MAX_TOKEN_LENGTH = 4096;

// RFC 6750 §2.1: `Bearer` 1*SP b64token; the scheme is case-insensitive (RFC 9110 §11.1).
// A JWS compact token has three base64url parts; an empty third part (`alg: none`) is let
// through so that the verifier, not the parser, refuses it.
const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i;

/**
 * The access token of the `Authorization: Bearer` header, or null. Only the header: never the
 * query string or the body (RFC 6750 §5.3).
 */
export function bearerTokenOf(request: Request): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.length > MAX_TOKEN_LENGTH + 16) return null;
  return BEARER.exec(header.trim())?.[1] ?? null;
}
