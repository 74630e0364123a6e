import type { SvcErrorCode } from './error-codes.js';

/** A way to sign in again that a `REAUTH_REQUIRED` answer offers: `password`, `totp`, `passkey` or `<method>:<provider>`. */
export type ReauthMethod = 'password' | 'totp' | 'passkey' | `${'oauth2' | 'oidc'}:${string}`;

interface SvcErrorFields {
  readonly name: 'SvcClientError';
  readonly message: string;
  /** The HTTP status; 0 when no answer came (`NETWORK_ERROR`). */
  readonly status: number;
}

/**
 * What every method of the client throws, discriminated by `code`: narrowing on `code` gives the
 * fields that code carries (`methods` with `REAUTH_REQUIRED`, `retryAfterSeconds` with
 * `RATE_LIMITED`, `problems` with `VALIDATION_FAILED`).
 */
export type SvcError =
  | (SvcErrorFields & { readonly code: 'REAUTH_REQUIRED'; readonly methods: readonly ReauthMethod[] })
  | (SvcErrorFields & { readonly code: 'RATE_LIMITED'; readonly retryAfterSeconds: number | null })
  | (SvcErrorFields & { readonly code: 'VALIDATION_FAILED'; readonly problems: readonly string[] })
  | (SvcErrorFields & { readonly code: Exclude<SvcErrorCode, 'REAUTH_REQUIRED' | 'RATE_LIMITED' | 'VALIDATION_FAILED'> });

/** The class behind `SvcError`; use `isSvcError` to narrow a caught value. */
export class SvcClientError extends Error {
  override readonly name = 'SvcClientError' as const;
  readonly methods?: readonly ReauthMethod[];
  readonly retryAfterSeconds?: number | null;
  readonly problems?: readonly string[];

  constructor(
    readonly code: SvcErrorCode,
    readonly status: number,
    message: string,
    extra: { methods?: readonly ReauthMethod[]; retryAfterSeconds?: number | null; problems?: readonly string[] } = {},
  ) {
    super(message);
    if (extra.methods !== undefined) this.methods = extra.methods;
    if (extra.retryAfterSeconds !== undefined) this.retryAfterSeconds = extra.retryAfterSeconds;
    if (extra.problems !== undefined) this.problems = extra.problems;
  }
}

/** Whether `error` is what the client throws, narrowed to the union by `code`. */
export function isSvcError(error: unknown): error is SvcError {
  return error instanceof SvcClientError;
}
