import { Controller, type Type, UseFilters, UseGuards } from '@nestjs/common';
import type { CredentialKind, LoginMethod } from './config/strategy.js';
import { Public } from './credentials/auth-access.decorators.js';
import { AuthExceptionFilter } from './http/auth-exception.filter.js';
import { AuthRequestGuard } from './http/auth-request.guard.js';
import { passwordLoginParts } from './login/password/password.parts.js';
import type { CredentialParts, LoginMethodParts } from './parts.js';
import { jwtCredentialParts } from './credentials/jwt/jwt.parts.js';
import { oauth2LoginParts } from './login/oauth2/oauth2.parts.js';
import { oidcLoginParts } from './login/oidc/oidc.parts.js';
import { sessionCredentialParts } from './credentials/session/session.parts.js';

const LOGIN_METHODS: Record<LoginMethod, LoginMethodParts> = {
  password: passwordLoginParts,
  oauth2: oauth2LoginParts,
  oidc: oidcLoginParts,
};

const CREDENTIALS: Record<CredentialKind, CredentialParts> = {
  session: sessionCredentialParts,
  jwt: jwtCredentialParts,
};

/** The parts of the module for one login method and one credential. */
export function strategyParts(loginMethod: LoginMethod, credential: CredentialKind): { login: LoginMethodParts; credential: CredentialParts } {
  return { login: LOGIN_METHODS[loginMethod], credential: CREDENTIALS[credential] };
}

/**
 * Mounts a controller under the configured prefix, behind `AuthRequestGuard` and with
 * `AuthExceptionFilter` for every error of its routes. A subclass per module instance carries the
 * path, so two applications in one process never share (or mutate) route metadata.
 */
export function withPrefix<T extends Type>(controller: T, prefix: string): T {
  const mounted = class extends controller {};
  Object.defineProperty(mounted, 'name', { value: controller.name });
  Controller(prefix)(mounted);
  UseGuards(AuthRequestGuard)(mounted);
  UseFilters(AuthExceptionFilter)(mounted);
  // Under a global guard the library's routes stay open; its /me checks its credential itself.
  Public()(mounted);
  return mounted;
}
