import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthConfigError } from '../config/auth-config.error.js';
import { isDefinedPermission } from '../config/authorization-policy.js';
import { decoratedNames } from '../http/decorated-names.js';
import { REQUIRED_ORG_PERMISSIONS, REQUIRED_ORG_ROLES } from './org-authorization.constants.js';

/**
 * A typo is caught at boot, not in production (docs/guides/organizations.md): every role and
 * permission an `@OrgRoles` / `@OrgPermissions` names, on any controller or provider of the
 * application, is one the `organizations` policy defines, or startup stops with `AuthConfigError`
 * naming it. Always in the graph, so a decorator without the section stops startup too.
 */
@Injectable()
export class OrgPolicyNamesCheck implements OnApplicationBootstrap {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onApplicationBootstrap(): void {
    const policy = this.config.organizations;
    for (const { key, name, where } of decoratedNames(this.discovery, this.scanner, [REQUIRED_ORG_ROLES, REQUIRED_ORG_PERMISSIONS])) {
      if (key === REQUIRED_ORG_ROLES) {
        if (!policy) throw new AuthConfigError('organizations', `is not given, but @OrgRoles on ${where} names the role "${name}": give the section`);
        if (!Object.hasOwn(policy.roles, name)) throw new AuthConfigError('organizations.roles', `does not define the role "${name}" that @OrgRoles on ${where} names`);
      } else {
        if (!policy) throw new AuthConfigError('organizations', `is not given, but @OrgPermissions on ${where} names the permission "${name}": give the section`);
        if (!isDefinedPermission(policy, name)) {
          throw new AuthConfigError('organizations.roles', `does not define the permission "${name}" that @OrgPermissions on ${where} names (no role grants it, nor its resource's "*")`);
        }
      }
    }
  }
}
