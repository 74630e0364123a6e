import type { Provider, Type } from '@nestjs/common';
import { AdminUsersController } from './admin-users.controller.js';
import { ImpersonationController } from './impersonation.controller.js';
import { Impersonation } from './impersonation.service.js';
import { UserAdministration } from './user-administration.js';
import { UserDirectory } from './user-directory.js';

/**
 * What every module has of the administration: the operations `AuthService` offers the
 * application's own code (find, deactivate, delete, ...), with or without the routes.
 */
export const userAdministrationProviders: Provider[] = [UserDirectory, UserAdministration];

/** The `admin` section's routes under `<prefix>/admin` and impersonation (docs/guides/administration.md); mounted only with it. */
export const adminParts: { controllers: Type[]; providers: Provider[] } = {
  controllers: [AdminUsersController, ImpersonationController],
  providers: [Impersonation],
};
