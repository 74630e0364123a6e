import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthConfigError } from '../config/auth-config.error.js';
import { isDefinedPermission } from '../config/authorization-policy.js';
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
    const seen = new Set<Function>();
    for (const wrapper of [...this.discovery.getControllers(), ...this.discovery.getProviders()]) {
      const type = wrapper.metatype as (Function & { prototype?: object }) | null | undefined;
      if (typeof type !== 'function' || !type.prototype || seen.has(type)) continue;
      seen.add(type);
      const targets: [Function, string][] = [
        [type, type.name],
        ...this.scanner.getAllMethodNames(type.prototype).map((method): [Function, string] => [(type.prototype as Record<string, Function>)[method], `${type.name}.${method}`]),
      ];
      for (const [target, where] of targets) {
        for (const name of (Reflect.getMetadata(REQUIRED_ORG_ROLES, target) as readonly string[] | undefined) ?? []) {
          if (!policy) throw new AuthConfigError('organizations', `is not given, but @OrgRoles on ${where} names the role "${name}": give the section`);
          if (!Object.hasOwn(policy.roles, name)) throw new AuthConfigError('organizations.roles', `does not define the role "${name}" that @OrgRoles on ${where} names`);
        }
        for (const name of (Reflect.getMetadata(REQUIRED_ORG_PERMISSIONS, target) as readonly string[] | undefined) ?? []) {
          if (!policy) throw new AuthConfigError('organizations', `is not given, but @OrgPermissions on ${where} names the permission "${name}": give the section`);
          if (!isDefinedPermission(policy, name)) {
            throw new AuthConfigError('organizations.roles', `does not define the permission "${name}" that @OrgPermissions on ${where} names (no role grants it, nor its resource's "*")`);
          }
        }
      }
    }
  }
}
