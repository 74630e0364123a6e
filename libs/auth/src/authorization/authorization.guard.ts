import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { grantsPermission, intersectPermissions, permissionsOfRoles } from '../config/authorization-policy.js';
import { CREDENTIAL_RESOLVER } from '../credentials/credential.tokens.js';
import type { CredentialResolver } from '../credentials/credential-resolver.js';
import { attachPrincipal, principalOf } from '../credentials/current-user.guard.js';
import { AuthError } from '../errors/auth.error.js';
import { rolesOf } from '../users/user-roles.js';
import { REQUIRED_PERMISSIONS, REQUIRED_ROLES } from './authorization.constants.js';

/**
 * What `@Roles` and `@Permissions` put on a route: a signed-in user (401 `UNAUTHENTICATED` first,
 * the credential resolved once per request, whichever guard comes first: `CurrentUserGuard`, the
 * global guard or this one), then what the controller and the handler each require, both
 * (403 `PERMISSION_DENIED`). Decided on the roles loaded with the credential, not on
 * `request.user`, which other code may have changed. Fails closed (OWASP ASVS 5.0 V8.2.1).
 */
@Injectable()
export class AuthorizationGuard implements CanActivate {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(CREDENTIAL_RESOLVER) private readonly resolver: CredentialResolver,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // svc authenticates HTTP requests only: any other handler is refused, never left open.
    if (context.getType() !== 'http') return false;
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    if (!principalOf(request)) attachPrincipal(request, await this.resolver.resolve(request, http.getResponse<Response>()));
    const policy = this.config.authorization;
    if (!policy) throw new AuthError('PERMISSION_DENIED');
    const principal = principalOf(request)!;
    const roles = rolesOf(principal.user) ?? [];
    const owned = permissionsOfRoles(policy, roles);
    // An API key acts with its scopes within its owner's permissions, and holds no role (docs/decisions/0032-api-keys.md).
    const permissions = principal.apiKey ? intersectPermissions(owned, principal.apiKey.scopes) : owned;
    for (const target of [context.getClass(), context.getHandler()]) {
      const anyRole = this.reflector.get<readonly string[] | undefined>(REQUIRED_ROLES, target);
      if (anyRole && (principal.apiKey || !anyRole.some((role) => roles.includes(role)))) throw new AuthError('PERMISSION_DENIED');
      const allPermissions = this.reflector.get<readonly string[] | undefined>(REQUIRED_PERMISSIONS, target);
      if (allPermissions && !allPermissions.every((permission) => grantsPermission(permissions, permission))) throw new AuthError('PERMISSION_DENIED');
    }
    return true;
  }
}
