import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { grantsPermission, permissionsOfRoles } from '../config/authorization-policy.js';
import { CREDENTIAL_RESOLVER } from '../credentials/credential.tokens.js';
import type { CredentialResolver } from '../credentials/credential-resolver.js';
import { attachPrincipal, principalOf } from '../credentials/current-user.guard.js';
import { AuthError } from '../errors/auth.error.js';
import { organizationOf } from '../users/user-organization.js';
import { REQUIRED_ORG_PERMISSIONS, REQUIRED_ORG_ROLES } from './org-authorization.constants.js';

/**
 * What `@OrgRoles` and `@OrgPermissions` put on a route: a signed-in user (401 first, the credential
 * resolved once per request), an active organization the user is still a member of (403
 * `ORGANIZATION_REQUIRED`), then what the controller and the handler each require of the role it
 * holds there (403 `PERMISSION_DENIED`). Decided on the membership loaded with the credential, not on
 * `request.user`, which other code may have changed. Fails closed (OWASP ASVS 5.0 V8.2.1).
 */
@Injectable()
export class OrgAuthorizationGuard implements CanActivate {
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
    const policy = this.config.organizations;
    if (!policy) throw new AuthError('PERMISSION_DENIED');
    const principal = principalOf(request)!;
    // An API key acts in no organization: it is refused here whatever its owner's credentials chose (docs/decisions/0032-api-keys.md).
    const active = principal.apiKey ? null : organizationOf(principal.user);
    if (!active) throw new AuthError('ORGANIZATION_REQUIRED');
    const permissions = permissionsOfRoles(policy, [active.role]);
    for (const target of [context.getClass(), context.getHandler()]) {
      const anyRole = this.reflector.get<readonly string[] | undefined>(REQUIRED_ORG_ROLES, target);
      if (anyRole && !anyRole.includes(active.role)) throw new AuthError('PERMISSION_DENIED');
      const allPermissions = this.reflector.get<readonly string[] | undefined>(REQUIRED_ORG_PERMISSIONS, target);
      if (allPermissions && !allPermissions.every((permission) => grantsPermission(permissions, permission))) throw new AuthError('PERMISSION_DENIED');
    }
    return true;
  }
}
