import type { Provider } from '@nestjs/common';
import { PolicyNamesCheck } from './policy-names.check.js';
import { RoleStore } from './role-store.js';

/**
 * Roles and permissions (docs/guides/roles-and-permissions.md): the role store `AuthService` grants and
 * revokes through, and the startup check of the names `@Roles` / `@Permissions` use. Always in the
 * graph: the policy is a value (`forRootAsync` may compute it), and without it the check still
 * refuses a decorator that names a role. `AuthorizationGuard` is instantiated where the decorators put it.
 */
export const authorizationProviders: Provider[] = [RoleStore, PolicyNamesCheck];
