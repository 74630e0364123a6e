import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { SvcUser } from '../entities/user.entity.js';
import { returnedColumnsOf } from './svc-columns.decorators.js';
import { createUserSerializer, type UserBody } from './user-body.js';

/** Turns a user row into the user body: id, email and the `@SvcReturned()` columns (docs/guides/application.md). */
@Injectable()
export class UserSerializer {
  readonly serialize: (user: SvcUser) => UserBody;

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    this.serialize = createUserSerializer(returnedColumnsOf(config.userEntity), { emailVerified: config.emailVerification !== undefined, mfa: config.mfa !== undefined });
  }
}
