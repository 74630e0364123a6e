import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CREDENTIAL_RESOLVER } from './credential.tokens.js';
import type { CredentialResolver, Principal } from './credential-resolver.js';
import { FreshSignIn } from './fresh-sign-in.js';
import { assertNotRestrictedForImpersonation } from './impersonation-restriction.js';

const PRINCIPAL = Symbol('svc:principal');

/**
 * Protects a route (docs/guides/application.md): resolves the authenticated user or answers 401
 * `UNAUTHENTICATED`. One guard for every strategy: the credential supplies the resolver. Like
 * passport's guards, it puts the user body on `request.user`, where role guards and loggers look.
 */
@Injectable()
export class CurrentUserGuard implements CanActivate {
  constructor(
    @Inject(CREDENTIAL_RESOLVER) private readonly resolver: CredentialResolver,
    private readonly freshSignIn: FreshSignIn,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    // The global guard may have resolved this request already: one lookup per request.
    if (!principalOf(request)) attachPrincipal(request, await this.resolver.resolve(request, http.getResponse<Response>()));
    const principal = principalOf(request)!;
    // An impersonation is refused before the age of its sign-in is looked at (docs/guides/account-security.md).
    assertNotRestrictedForImpersonation(context, principal);
    const refusal = this.freshSignIn.assertFreshFor(context, principal);
    if (refusal) await refusal;
    return true;
  }
}

/**
 * Records who the request is: the principal for `@CurrentUser('row')`, the user body on `request.user`.
 * `request.user.authTime` is the credential's last real sign-in (a `Date`, or null when unknown;
 * docs/guides/account-security.md), not enumerable: no body that returns `request.user` shows it.
 */
export function attachPrincipal(request: Request, principal: Principal): void {
  (request as unknown as Record<symbol, Principal>)[PRINCIPAL] = principal;
  Object.defineProperty(principal.body, 'authTime', { value: principal.authTime, enumerable: false, configurable: true, writable: false });
  (request as Request & { user?: unknown }).user = principal.body;
}

/** Says the request is anonymous: no principal, and no `request.user`, whoever set it. */
export function detachPrincipal(request: Request): void {
  delete (request as unknown as Record<symbol, Principal>)[PRINCIPAL];
  delete (request as Request & { user?: unknown }).user;
}

/** The principal `CurrentUserGuard` (or the global guard) attached to the request, if one did. */
export function principalOf(request: Request): Principal | undefined {
  return (request as unknown as Record<symbol, Principal | undefined>)[PRINCIPAL];
}
