import { SetMetadata } from '@nestjs/common';
import type { AuthConfig } from '../config/auth-config.js';
import type { AuthErrorCode } from '../errors/error-codes.js';

/**
 * The body of a route's success answer, as the OpenAPI document names its schema; `login` is what a
 * login answers with the configured credential (the user body, or the token body), `credential` the
 * credential's cookie on a redirect.
 */
export type SvcSuccessBody =
  | 'user'
  | 'token'
  | 'login'
  | 'credential'
  | 'linkUrl'
  | 'accounts'
  | 'devices'
  | 'passkeyCreationOptions'
  | 'passkeyRequestOptions'
  | 'passkey'
  | 'passkeys'
  | 'mfaSetup'
  | 'recoveryCodes'
  | 'loginOrChallenge'
  | 'apiKeyCreated'
  | 'apiKeys'
  | 'jwks';

/**
 * What the OpenAPI document says of a library route beyond what Nest and svc's own decorators say
 * (its method, path and status; its body, credential guard and rate limit; the cross-site check of
 * a write): the summary, the success body, and the refusals of the route itself, in order.
 */
export interface SvcRouteFacts {
  summary: string;
  /** `status`: only for a handler that answers by itself (a redirect), where Nest's status says nothing. */
  success: { description: string; body?: SvcSuccessBody; status?: number };
  /** The codes the route's own work can answer with (its before-hooks' included when run by its service). */
  errors?: readonly AuthErrorCode[];
  /** A code this route answers with another status than its usual one (`MFA_CODE_INVALID` is 401 at /mfa/verify). */
  errorStatus?: Partial<Record<AuthErrorCode, number>>;
  /** The values each path parameter may take (`'uuid'`: any UUID). */
  pathParameters?: Record<string, readonly string[] | 'uuid'>;
  /** The refresh cookie, for /refresh and the jwt logout. */
  refreshCookie?: boolean;
  /** A provider's callback whose errors answer 303 to the section's `errorRedirect`. */
  errorRedirect?: boolean;
}

/** What `@SvcRoute(facts)` leaves on its handler. */
export const SVC_ROUTE = Symbol('svc: what the OpenAPI document says of this route');

/**
 * Declares, next to a library handler, what the OpenAPI document says of it (`svc/openapi`); a
 * function when that depends on the configuration (the credential, email verification).
 */
export const SvcRoute = (facts: SvcRouteFacts | ((config: AuthConfig) => SvcRouteFacts)): MethodDecorator => SetMetadata(SVC_ROUTE, facts);

/**
 * A guard (its class) that keeps a library controller's routes unserved, 404 `NOT_FOUND`, under some
 * configurations, with the one decision it makes on each request: the document leaves them out there.
 */
export interface RouteGate {
  servedWith(config: AuthConfig): boolean;
}
