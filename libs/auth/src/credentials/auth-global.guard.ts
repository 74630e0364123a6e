import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { CREDENTIAL_RESOLVER } from './credential.tokens.js';
import { AuthError } from '../errors/auth.error.js';
import type { CredentialResolver } from './credential-resolver.js';
import { OPTIONAL_AUTH_ROUTE, PUBLIC_ROUTE } from './auth-access.decorators.js';
import { attachPrincipal, detachPrincipal } from './current-user.guard.js';
import { FreshSignIn } from './fresh-sign-in.js';
import { assertNotRestrictedForImpersonation } from './impersonation-restriction.js';

/**
 * `globalGuard: true`: every route of the application needs a credential, as if it had
 * `@UseGuards(CurrentUserGuard)`, except the `@Public()` ones; `@OptionalAuth()` routes are served
 * to everyone and learn who is signed in. Fails closed: only a missing or refused credential makes
 * an optional route anonymous; an unavailable database or a cross-site request is still refused.
 * Handlers that are not HTTP routes (GraphQL, WebSocket, microservices) are refused unless public.
 */
@Injectable()
export class AuthGlobalGuard implements CanActivate {
  constructor(
    @Inject(CREDENTIAL_RESOLVER) private readonly resolver: CredentialResolver,
    private readonly reflector: Reflector,
    private readonly freshSignIn: FreshSignIn,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    // svc authenticates HTTP requests only: a GraphQL resolver, a gateway or a message handler it
    // cannot vouch for is refused rather than left open, unless marked @Public().
    if (context.getType() !== 'http') return false;
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    let principal;
    try {
      principal = await this.resolver.resolve(request, response);
      attachPrincipal(request, principal);
    } catch (error) {
      const anonymous = error instanceof AuthError && error.code === 'UNAUTHENTICATED';
      if (!anonymous || !this.reflector.getAllAndOverride<boolean>(OPTIONAL_AUTH_ROUTE, targets)) throw error;
      response.removeHeader('WWW-Authenticate');
      // The guard owns request.user: what other middleware put there is not a user svc vouches for,
      // and @CurrentUser() and @RateLimit({ by: 'user' }) would trust it.
      detachPrincipal(request);
      return true;
    }
    assertNotRestrictedForImpersonation(context, principal);
    const refusal = this.freshSignIn.assertFreshFor(context, principal);
    if (refusal) await refusal;
    return true;
  }
}
