import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AUTH_CLOCK, AUTH_CONFIG, AUTH_HOOKS, CREDENTIAL_ISSUER, CREDENTIAL_RESOLVER, CREDENTIAL_REVOKER } from './auth.constants.js';
import {
  AUTH_ASYNC_OPTIONS_TYPE,
  AUTH_MODULE_OPTIONS,
  AUTH_OPTIONS_TYPE,
  ConfigurableAuthModule,
} from './auth.module-definition.js';
import { AuthService } from './auth.service.js';
import { systemClock } from './clock.js';
import type { AuthModuleExtras, AuthOptions } from './config/auth-options.js';
import { AuthConfigError } from './config/auth-config.error.js';
import { builtCredentialOf, loginMethodOf } from './config/strategy.js';
import { validateAuthOptions, validatePrefix } from './config/validate-auth-options.js';
import { authEntities } from './entities/index.js';
import { REQUIRED_USER_ATTRIBUTES, User } from './entities/user.entity.js';
import { AfterResponse } from './events/after-response.js';
import { AuthEventPublisher } from './events/auth-event-publisher.js';
import { AuthGlobalGuard } from './credentials/auth-global.guard.js';
import { CurrentUserGuard } from './credentials/current-user.guard.js';
import { HookRunner } from './hooks/hook-runner.js';
import { AuthRequestGuard } from './http/auth-request.guard.js';
import { AuthBodyGateInstaller } from './http/auth-body-gate.installer.js';
import { PurgeScheduler } from './maintenance/purge-scheduler.js';
import { UnitOfWork } from './persistence/unit-of-work.js';
import { strategyParts, withPrefix } from './strategy-parts.js';
import { assertEntityHasAttributes } from './users/model-check.js';
import { UserSerializer } from './users/user-serializer.service.js';
import { UserStore } from './users/user-store.js';
import { rateLimitProviders } from './rate-limit/rate-limit.providers.js';
import { RateLimitStorage } from './rate-limit/rate-limit.storage.js';

/**
 * `AuthModule.forRoot({ strategy, baseUrl, ... })`: registers the strategy's controllers under the
 * prefix, `CurrentUserGuard`, `AuthService` and the hooks. Global, so the guard works anywhere.
 */
@Module({})
export class AuthModule {
  static forRoot(options: typeof AUTH_OPTIONS_TYPE & AuthModuleExtras): DynamicModule {
    return withStrategy(ConfigurableAuthModule.forRoot(options), options);
  }

  static forRootAsync(options: typeof AUTH_ASYNC_OPTIONS_TYPE & AuthModuleExtras): DynamicModule {
    return withStrategy(ConfigurableAuthModule.forRootAsync(options), options);
  }
}

function withStrategy(definition: DynamicModule, extras: AuthModuleExtras): DynamicModule {
  const userEntity = extras.entities?.user ?? User;
  // README, "Module shape": the user entity is checked while the module graph is built, before anything serves.
  assertEntityHasAttributes(userEntity, REQUIRED_USER_ATTRIBUTES);
  const prefix = validatePrefix(extras.prefix);
  if (extras.globalGuard !== undefined && typeof extras.globalGuard !== 'boolean') throw new AuthConfigError('globalGuard', 'must be true or false');
  const parts = strategyParts(loginMethodOf(extras.strategy), builtCredentialOf(extras));
  const controllers = [...parts.login.controllers, ...parts.credential.controllers].map((controller) => withPrefix(controller, prefix));
  const providers: Provider[] = [
    {
      provide: AUTH_CONFIG,
      useFactory: (options: AuthOptions) => validateAuthOptions(options, extras),
      inject: [AUTH_MODULE_OPTIONS],
    },
    { provide: AUTH_CLOCK, useValue: systemClock },
    AuthBodyGateInstaller,
    ...(extras.hooks ? [{ provide: AUTH_HOOKS, useClass: extras.hooks }] : []),
    ...(extras.globalGuard ? [{ provide: APP_GUARD, useClass: AuthGlobalGuard }] : []),
    UnitOfWork,
    UserStore,
    UserSerializer,
    HookRunner,
    AfterResponse,
    AuthEventPublisher,
    AuthService,
    PurgeScheduler,
    CurrentUserGuard,
    AuthRequestGuard,
    ...rateLimitProviders(),
    ...parts.login.providers,
    ...parts.credential.providers,
    { provide: CREDENTIAL_ISSUER, useExisting: parts.credential.issuer },
    { provide: CREDENTIAL_RESOLVER, useExisting: parts.credential.resolver },
    { provide: CREDENTIAL_REVOKER, useExisting: parts.credential.revoker },
  ];
  return {
    ...definition,
    module: AuthModule,
    global: true,
    imports: [...(definition.imports ?? []), TypeOrmModule.forFeature(authEntities(userEntity))],
    controllers,
    providers: [...(definition.providers ?? []), ...providers],
    exports: [AUTH_CONFIG, AUTH_CLOCK, CREDENTIAL_RESOLVER, AuthService, CurrentUserGuard, UnitOfWork, RateLimitStorage, AfterResponse],
  };
}
