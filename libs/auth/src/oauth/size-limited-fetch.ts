import type * as client from 'openid-client';

/** The most a provider's answer (discovery, JWKS, token, userinfo, a mapper's resource) may hold, in bytes. */
export const MAX_PROVIDER_RESPONSE_BYTES = 1024 * 1024;

/** A provider's answer over MAX_PROVIDER_RESPONSE_BYTES: refused, the rest of it never read. */
export class ProviderResponseTooLarge extends Error {
  override readonly name = 'ProviderResponseTooLarge';

  constructor() {
    super(`the answer is over ${MAX_PROVIDER_RESPONSE_BYTES} bytes; not read further`);
  }
}

/** Statuses whose response has no body (Fetch standard, "null body status"). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * `fetch` for openid-client (`client.customFetch`): a provider's answer is read up to
 * MAX_PROVIDER_RESPONSE_BYTES and no further. A declared `Content-Length` over it is refused before
 * the body is read; otherwise the body is counted as it streams (after any content decoding, so a
 * compressed answer is measured by what it inflates to) and the stream fails, cancelling the
 * connection, at the first byte over. Whatever then reads the body (`json()`, `text()`) fails.
 */
export const sizeLimitedFetch: client.CustomFetch = async (url, options) => {
  const response = await fetch(url, options as RequestInit);
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_PROVIDER_RESPONSE_BYTES) {
    await response.body?.cancel();
    throw new ProviderResponseTooLarge();
  }
  if (response.body === null || NULL_BODY_STATUSES.has(response.status)) return response;
  const limited = response.body.pipeThrough(byteLimit(MAX_PROVIDER_RESPONSE_BYTES));
  return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
};

/** Passes at most `max` bytes through; the next byte errors the stream (and cancels its source). */
function byteLimit(max: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max) controller.error(new ProviderResponseTooLarge());
      else controller.enqueue(chunk);
    },
  });
}

/** Whether `error`, or an error it was caused by, is a ProviderResponseTooLarge (openid-client wraps what fetch and the body throw). */
export function isResponseTooLarge(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth += 1) {
    if (current instanceof ProviderResponseTooLarge) return true;
  }
  return false;
}
