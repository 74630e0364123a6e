import { expect } from '@jest/globals';
import type { RawResponse } from '../../support/raw-http.js';

/** docs/decisions/0004-errors.md and docs/decisions/0003-transactions.md: a dependency that is down fails closed with 503 and the error body, and no credential is set. */
export function expectServiceUnavailable(response: RawResponse): void {
  expect({ status: response.status, body: response.json, setCookies: response.setCookies }).toEqual({
    status: 503,
    body: { statusCode: 503, error: 'Service Unavailable', message: expect.any(String), code: 'SERVICE_UNAVAILABLE' },
    setCookies: [],
  });
}

/** docs/decisions/0011-before-hooks.md: 500 HOOK_FAILED with the error body and no detail, and no credential set. */
export function expectHookFailed(response: RawResponse): void {
  expect({ status: response.status, body: response.json, setCookies: response.setCookies }).toEqual({
    status: 500,
    body: { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error', code: 'HOOK_FAILED' },
    setCookies: [],
  });
}

/** Resolves with what `work` resolves to, or fails when it takes longer than `ms` (a hang is a failure, not a timeout of the whole test). */
export async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
