import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { permissionsOfRoles } from '../config/authorization-policy.js';
import type { SvcUser } from '../entities/user.entity.js';
import { returnedColumnsOf } from './svc-columns.decorators.js';
import { createUserSerializer, type UserBody } from './user-body.js';
import { rolesOf } from './user-roles.js';

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
   * the permissions of the user's roles (docs/guides/roles-and-permissions.md).
   */
  principalBody(user: SvcUser): UserBody {
    const body = this.serialize(user);
    const policy = this.config.authorization;
    if (policy) body.permissions = permissionsOfRoles(policy, rolesOf(user) ?? []);
    return body;
  }
}
