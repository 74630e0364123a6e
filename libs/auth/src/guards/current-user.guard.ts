import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CREDENTIAL_RESOLVER } from '../auth.constants.js';
import type { CredentialResolver, Principal } from '../strategies/credential/credential-resolver.js';

const PRINCIPAL = Symbol('svc:principal');

/**
 * Spec rule 4 (`current_user`): protects a route; resolves the authenticated user or answers 401
 * `UNAUTHENTICATED`. One guard for every strategy: the strategy supplies the resolver.
 */
@Injectable()
export class CurrentUserGuard implements CanActivate {
  constructor(@Inject(CREDENTIAL_RESOLVER) private readonly resolver: CredentialResolver) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const principal = await this.resolver.resolve(request, http.getResponse<Response>());
    (request as unknown as Record<symbol, Principal>)[PRINCIPAL] = principal;
    return true;
  }
}

/** The principal `CurrentUserGuard` attached to the request, if it ran. */
export function principalOf(request: Request): Principal | undefined {
  return (request as unknown as Record<symbol, Principal | undefined>)[PRINCIPAL];
}
