import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { permissionsOfRoles } from '../config/authorization-policy.js';
import type { SvcUser } from '../entities/user.entity.js';
import { returnedColumnsOf } from './svc-columns.decorators.js';
import { createUserSerializer, type UserBody } from './user-body.js';
import { rolesOf } from './user-roles.js';
import { organizationOf } from './user-organization.js';

/** Turns a user row into the user body: id, email and the `@SvcReturned()` columns (docs/guides/application.md). */
@Injectable()
export class UserSerializer {
  readonly serialize: (user: SvcUser) => UserBody;

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {
    this.serialize = createUserSerializer(returnedColumnsOf(config.userEntity), {
      emailVerified: config.emailVerification !== undefined,
      mfa: config.mfa !== undefined,
      roles: config.authorization !== undefined,
    });
  }

  /**
   * The body of a resolved credential (`request.user`, `/me`): the user body, and with `authorization`
   * the permissions of the user's roles (docs/guides/roles-and-permissions.md), and with `organizations`
   * the active organization.
   */
  principalBody(user: SvcUser): UserBody {
    const body = this.serialize(user);
    const policy = this.config.authorization;
    if (policy) body.permissions = permissionsOfRoles(policy, rolesOf(user) ?? []);
    const organizations = this.config.organizations;
    if (organizations) {
      // docs/guides/organizations.md: the credential's active organization, its role and that role's permissions in it.
      const active = organizationOf(user) ?? null;
      body.organization = active === null ? null : { id: active.id, role: active.role, permissions: permissionsOfRoles(organizations, [active.role]) };
    }
    return body;
  }
}
