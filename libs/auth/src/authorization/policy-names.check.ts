import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthConfigError } from '../config/auth-config.error.js';
import { isDefinedPermission } from '../config/authorization-policy.js';
import { decoratedNames } from '../http/decorated-names.js';
import { REQUIRED_PERMISSIONS, REQUIRED_ROLES } from './authorization.constants.js';

/**
 * A typo is caught at boot, not in production (docs/guides/roles-and-permissions.md): every role and
 * permission a `@Roles` / `@Permissions` names, on any controller or provider of the application
 * (found through Nest's DiscoveryService), is one the `authorization` policy defines, or startup
 * stops with `AuthConfigError` naming it. `defaultRoles` is checked with the options.
 */
@Injectable()
export class PolicyNamesCheck implements OnApplicationBootstrap {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onApplicationBootstrap(): void {
    const policy = this.config.authorization;
    for (const { key, name, where } of decoratedNames(this.discovery, this.scanner, [REQUIRED_ROLES, REQUIRED_PERMISSIONS])) {
      const kind = key === REQUIRED_ROLES ? 'role' : 'permission';
      const decorator = kind === 'role' ? '@Roles' : '@Permissions';
      if (!policy) throw new AuthConfigError('authorization', `is not given, but ${decorator} on ${where} names the ${kind} "${name}": give the policy`);
      const defined = kind === 'role' ? Object.hasOwn(policy.roles, name) : isDefinedPermission(policy, name);
      if (!defined) {
        throw new AuthConfigError('authorization.roles', `does not define the ${kind} "${name}" that ${decorator} on ${where} names${kind === 'permission' ? ' (no role grants it, nor its resource\'s "*")' : ''}`);
      }
    }
  }
}
