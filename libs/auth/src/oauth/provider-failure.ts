import type { Logger } from '@nestjs/common';
import { ResponseBodyError } from 'openid-client';
import { AuthError } from '../errors/auth.error.js';
import { describeError } from '../errors/describe-error.js';
import { isResponseTooLarge } from './size-limited-fetch.js';

/**
 * The identity checks of oauth4webapi: the id_token's (OpenID Connect Core §3.1.3.7) and a userinfo
 * `sub` that is not the id_token's (§5.3.2); then the messages of the checks sharing a generic code.
 */
const ID_TOKEN_CODES = new Set(['OAUTH_JWT_CLAIM_COMPARISON_FAILED', 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED', 'OAUTH_KEY_SELECTION_FAILED', 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED']);
const ID_TOKEN_MESSAGE = /\bJWT\b|ID Token|"id_token"|"alg"/;

/**
 * The error a failed call to a provider answers with (docs/decisions/0018-oauth-logins.md): a code the token
 * endpoint refused (`invalid_grant`: replayed, expired, or a PKCE verifier that does not match) is
 * 401 `OAUTH_CODE_REJECTED`; an id_token that fails a check is 401 `OIDC_ID_TOKEN_INVALID`;
 * anything else (unreachable, slow, over 1 MiB, not JSON, the wrong shape, our client refused) is 502
 * `OAUTH_PROVIDER_UNAVAILABLE`. Logged as name and message only (no token reaches a log).
 */
export interface ProviderStep {
  provider: string;
  step: string;
  /** An id_token is checked in this step: its failures are 401, not 502. */
  idTokenExpected: boolean;
}

/** Runs one call to a provider; whatever it throws becomes the AuthError of `providerFailure`. */
export async function callProvider<T>(context: ProviderStep, logger: Logger, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw providerFailure(error, context, logger);
  }
}

export function providerFailure(error: unknown, context: ProviderStep, logger: Logger): AuthError {
  if (error instanceof AuthError) return error;
  const where = `OAuth provider ${context.provider}, ${context.step}`;
  if (isResponseTooLarge(error)) {
    // Checked first: an oversized JWKS or id_token response is the provider's outage, not a bad id_token.
    logger.warn(`${where}: answer over 1 MiB, not read further`);
    return new AuthError('OAUTH_PROVIDER_UNAVAILABLE', { cause: error });
  }
  if (error instanceof ResponseBodyError && error.error === 'invalid_grant') {
    logger.warn(`${where}: code rejected (${error.error})`);
    return new AuthError('OAUTH_CODE_REJECTED', { cause: error });
  }
  if (context.idTokenExpected && isIdTokenFailure(error)) {
    logger.warn(`${where}: id_token refused: ${described(error)}`);
    return new AuthError('OIDC_ID_TOKEN_INVALID', { cause: error });
  }
  logger.warn(`${where}: ${described(error)}`);
  return new AuthError('OAUTH_PROVIDER_UNAVAILABLE', { cause: error });
}

function isIdTokenFailure(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && ID_TOKEN_CODES.has(code)) return true;
  return (code === 'OAUTH_INVALID_RESPONSE' || code === 'OAUTH_PARSE_ERROR') && ID_TOKEN_MESSAGE.test(detailOf(error));
}

/**
 * openid-client wraps oauth4webapi's errors with a generic message; the specific one is the cause's.
 * A JSON parse error quotes the start of the body it failed on, which may be a token: never logged.
 */
function detailOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const specific = cause instanceof Error ? cause : error instanceof Error ? error : undefined;
  if (specific instanceof SyntaxError) return 'the body is not JSON';
  return specific?.message ?? '';
}

function described(error: unknown): string {
  const detail = detailOf(error);
  const text = describeError(error);
  return detail && !text.endsWith(detail) ? `${text} (${detail})` : text;
}
