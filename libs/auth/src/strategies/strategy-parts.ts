import { Controller, type Provider, type Type, UseFilters, UseGuards } from '@nestjs/common';
import { AuthExceptionFilter } from '../http/auth-exception.filter.js';
import { AuthRequestGuard } from '../http/auth-request.guard.js';
import type { AuthStrategy } from '../config/auth-options.js';
import type { CredentialResolver } from '../guards/credential-resolver.js';
import { passwordRecoveryParts } from '../password/password-recovery.parts.js';
import type { CredentialRevoker } from './credential-revoker.js';
import { AccessTokenService } from './jwt/access-token.service.js';
import { AccessTokenStrategy } from './jwt/access-token.strategy.js';
import { JwtCredentialIssuer } from './jwt/jwt-credential.issuer.js';
import { JwtCredentialResolver } from './jwt/jwt-credential.resolver.js';
import { JwtLogout } from './jwt/jwt-logout.service.js';
import { JwtController } from './jwt/jwt.controller.js';
import { RefreshRotation } from './jwt/refresh-rotation.service.js';
import { RefreshTokenStore } from './jwt/refresh-token-store.js';
import { SessionStore } from './session/session-store.js';
import { SessionCredentialResolver } from './session/session-credential.resolver.js';
import { SessionController } from './session/session.controller.js';

/** What one strategy adds to the module: its controllers, providers and credential resolver. */
export interface StrategyParts {
  controllers: Type[];
  providers: Provider[];
  credentialResolver: Type<CredentialResolver>;
  credentialRevoker: Type<CredentialRevoker>;
}

export function strategyParts(strategy: AuthStrategy): StrategyParts {
  switch (strategy) {
    case 'session':
      return {
        controllers: [SessionController, ...passwordRecoveryParts.controllers],
        providers: [SessionCredentialResolver, ...passwordRecoveryParts.providers],
        credentialResolver: SessionCredentialResolver,
        credentialRevoker: SessionStore,
      };
    case 'jwt':
      return {
        controllers: [JwtController, ...passwordRecoveryParts.controllers],
        providers: [
          AccessTokenService,
          AccessTokenStrategy,
          JwtCredentialIssuer,
          JwtCredentialResolver,
          JwtLogout,
          RefreshRotation,
          ...passwordRecoveryParts.providers,
        ],
        credentialResolver: JwtCredentialResolver,
        credentialRevoker: RefreshTokenStore,
      };
    default:
      throw new TypeError(`svc: the ${String(strategy)} strategy is not available yet`);
  }
}

/**
 * Mounts a controller under the configured prefix, behind `AuthRequestGuard` and with
 * `AuthExceptionFilter` for every error of its routes. A subclass per
 * module instance carries the path, so two applications in one process never share (or mutate)
 * route metadata.
 */
export function withPrefix<T extends Type>(controller: T, prefix: string): T {
  const mounted = class extends controller {};
  Object.defineProperty(mounted, 'name', { value: controller.name });
  Controller(prefix)(mounted);
  UseGuards(AuthRequestGuard)(mounted);
  UseFilters(AuthExceptionFilter)(mounted);
  return mounted;
}
