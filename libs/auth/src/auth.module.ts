import { Controller, type DynamicModule, Module, type Provider, type Type, UseFilters, UseGuards } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants.js';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AUTH_CLOCK, AUTH_CONFIG, AUTH_HOOKS } from './config/auth.constants.js';
import { CREDENTIAL_DEVICES, CREDENTIAL_ISSUER, CREDENTIAL_ORGANIZATIONS, CREDENTIAL_REAUTHENTICATION, CREDENTIAL_RESOLVER, CREDENTIAL_REVOKER } from './credentials/credential.tokens.js';
import {
  AUTH_ASYNC_OPTIONS_TYPE,
  AUTH_MODULE_OPTIONS,
  AUTH_OPTIONS_TYPE,
  type AuthModuleExtras,
  ConfigurableAuthModule,
} from './auth.module-definition.js';
import { AuthService } from './auth.service.js';
import { systemClock } from './config/clock.js';
import type { AuthOptions } from './config/auth-options.js';
import { AuthConfigError } from './config/auth-config.error.js';
import { type CredentialKind, type LoginMethod, moduleShapeOf, optionalPartsOf } from './config/login-methods.js';
import { validateAuthOptions, validatePrefix } from './config/validate-auth-options.js';
import { authEntities } from './auth.entities.js';
import { REQUIRED_USER_ATTRIBUTES, User } from './entities/user.entity.js';
import { AfterResponse } from './events/after-response.js';
import { AuthEventPublisher } from './events/auth-event-publisher.js';
import { SecurityNotices } from './notices/security-notices.js';
import { MailSender } from './mail/mail-sender.js';
import { Public } from './credentials/auth-access.decorators.js';
import { AuthGlobalGuard } from './credentials/auth-global.guard.js';
import { CredentialDelivery } from './credentials/credential-delivery.js';
import { CurrentUserGuard } from './credentials/current-user.guard.js';
import { FreshSignIn } from './credentials/fresh-sign-in.js';
import { jwtCredentialParts } from './credentials/jwt/jwt.parts.js';
import { sessionCredentialParts } from './credentials/session/session.parts.js';
import { nativeClientParts } from './credentials/native/native.parts.js';
import { nativeClientsOf } from './config/validate-native-clients.js';
import { HookRunner } from './hooks/hook-runner.js';
import { AuthBodySchemas } from './http/auth-body-schemas.js';
import { BeforeHooksInterceptor } from './http/before-hooks.interceptor.js';
import { AuthBodyGateInstaller } from './http/auth-body-gate.installer.js';
import { AuthExceptionFilter } from './http/auth-exception.filter.js';
import { AuthRequestGuard } from './http/auth-request.guard.js';
import { LoginCompletion } from './login/login-completion.js';
import { UsedChallenges } from './login/used-challenges.js';
import { mfaParts, noSecondFactorParts } from './two-step/mfa.parts.js';
import { oauth2LoginParts } from './oauth2/oauth2.parts.js';
import { oidcLoginParts } from './oidc/oidc.parts.js';
import { passkeyParts } from './passkeys/passkey.parts.js';
import { adminParts, userAdministrationProviders } from './admin/admin.parts.js';
import { apiKeyParts, ApiKeyRefusalGuard, withApiKeyResolver } from './api-keys/api-keys.parts.js';
import { accountParts } from './account/account.parts.js';
import { auditLogProviders, auditParts } from './audit/audit.parts.js';
import { passwordLoginParts } from './password/password.parts.js';
import { reauthParts } from './reauth/reauth.parts.js';
import { PurgeScheduler } from './purge-scheduler.js';
import { UnitOfWork } from './persistence/unit-of-work.js';
import type { LoginMethodParts } from './login/login-parts.js';
import type { CredentialParts } from './credentials/credential-parts.js';
import { assertEntityHasAttributes } from './users/model-check.js';
import { UserSerializer } from './users/user-serializer.service.js';
import { UserStore } from './users/user-store.js';
import { UnprovenMailbox } from './users/unproven-mailbox.js';
import { WaysIn } from './users/ways-in.js';
import { rateLimitProviders } from './rate-limit/rate-limit.providers.js';
import { noPrincipalCacheProviders, principalCacheProviders } from './principal-cache/principal-cache.providers.js';
import { RateLimitStorage } from './rate-limit/rate-limit.storage.js';
import { authorizationProviders } from './authorization/authorization.providers.js';
import { organizationCheckProviders, organizationParts } from './organizations/organizations.parts.js';

const CREDENTIALS: Record<CredentialKind, CredentialParts> = { session: sessionCredentialParts, jwt: jwtCredentialParts };
const LOGIN_METHODS: Record<LoginMethod, LoginMethodParts> = { password: passwordLoginParts, oauth2: oauth2LoginParts, oidc: oidcLoginParts };

/**
 * `AuthModule.forRoot({ baseUrl, credential, password, oidc, ... })`: the parts of the credential
 * and of each login method (their controllers under the prefix, their services), with
 * `CurrentUserGuard`, `AuthService` and the hooks. Global, so the guard works anywhere.
 */
@Module({})
export class AuthModule {
  static forRoot(options: typeof AUTH_OPTIONS_TYPE & AuthModuleExtras): DynamicModule {
    return withParts(ConfigurableAuthModule.forRoot(options), options);
  }

  static forRootAsync(options: typeof AUTH_ASYNC_OPTIONS_TYPE & AuthModuleExtras): DynamicModule {
    return withParts(ConfigurableAuthModule.forRootAsync(options), options);
  }
}

function withParts(definition: DynamicModule, extras: AuthModuleExtras): DynamicModule {
  const userEntity = extras.entities?.user ?? User;
  // docs/decisions/0001-module-shape.md: the user entity is checked while the module graph is built, before anything serves.
  assertEntityHasAttributes(userEntity, REQUIRED_USER_ATTRIBUTES);
  const prefix = validatePrefix(extras.prefix);
  if (extras.globalGuard !== undefined && typeof extras.globalGuard !== 'boolean') throw new AuthConfigError('globalGuard', 'must be true or false', extras.globalGuard);
  const shape = moduleShapeOf(extras);
  const features = optionalPartsOf(extras);
  const credential = CREDENTIALS[shape.credential];
  // docs/guides/machine-access.md: native clients get the jwt credential beside the browser's.
  const native = nativeClientsOf(extras) ? nativeClientParts(shape.credential, credential) : undefined;
  // The optional parts only with their sections (docs/decisions/0001-module-shape.md): an absent one's routes are
  // paths no route matches (404 NOT_FOUND under the prefix). Two-step login needs the password method (its setup
  // asks for the password; without it the section is refused at startup); without it every login passes the null gate.
  const secondFactor = features.includes('mfa') && shape.loginMethods.includes('password') ? mfaParts : noSecondFactorParts;
  const parts = [
    ...shape.loginMethods.map((method) => LOGIN_METHODS[method]),
    secondFactor,
    ...(features.includes('passkeys') ? [passkeyParts] : []),
    ...(features.includes('admin') ? [adminParts] : []),
    ...(features.includes('apiKeys') ? [apiKeyParts] : []),
    reauthParts,
    ...(features.includes('audit') ? [auditParts(features.includes('admin'))] : []),
    ...(features.includes('organizations') ? [organizationParts] : []),
    credential,
    accountParts,
  ];
  const credentialTokens: Provider[] = native?.credentialTokens ?? [
    { provide: CREDENTIAL_ISSUER, useExisting: credential.issuer },
    { provide: CREDENTIAL_RESOLVER, useExisting: credential.resolver },
    { provide: CREDENTIAL_REVOKER, useExisting: credential.revoker },
    { provide: CREDENTIAL_DEVICES, useExisting: credential.devices },
    { provide: CREDENTIAL_REAUTHENTICATION, useExisting: credential.reauthentication },
    { provide: CREDENTIAL_ORGANIZATIONS, useExisting: credential.organizations },
  ];
  // Parts may share controllers and providers (the OAuth core of oauth2 and oidc): each is registered once.
  const controllers = [...new Set([...parts.flatMap((part) => part.controllers), ...(native?.controllers ?? [])])].map((controller) =>
    mountUnderPrefix(controller, prefix, features.includes('apiKeys')),
  );
  const providers: Provider[] = [
    {
      provide: AUTH_CONFIG,
      useFactory: (options: AuthOptions) => validateAuthOptions(options, extras),
      inject: [AUTH_MODULE_OPTIONS],
    },
    { provide: AUTH_CLOCK, useValue: systemClock },
    AuthBodySchemas,
    BeforeHooksInterceptor,
    CredentialDelivery,
    LoginCompletion,
    // Passkey ceremonies and two-step logins spend their challenges in one store.
    UsedChallenges,
    AuthBodyGateInstaller,
    ...(extras.hooks ? [{ provide: AUTH_HOOKS, useClass: extras.hooks }] : []),
    ...(extras.globalGuard ? [{ provide: APP_GUARD, useClass: AuthGlobalGuard }] : []),
    UnitOfWork,
    UserStore,
    WaysIn,
    UnprovenMailbox,
    UserSerializer,
    HookRunner,
    AfterResponse,
    AuthEventPublisher,
    SecurityNotices,
    MailSender,
    AuthService,
    PurgeScheduler,
    CurrentUserGuard,
    FreshSignIn,
    AuthRequestGuard,
    ...userAdministrationProviders,
    ...auditLogProviders,
    ...rateLimitProviders(),
    ...authorizationProviders,
    ...organizationCheckProviders,
    ...(features.includes('principalCache') ? principalCacheProviders() : noPrincipalCacheProviders()),
    ...new Set([...parts.flatMap((part) => part.providers), ...(native?.providers ?? [])]),
    ...(features.includes('apiKeys') ? withApiKeyResolver(credentialTokens) : credentialTokens),
  ];
  return {
    ...definition,
    module: AuthModule,
    global: true,
    imports: [...(definition.imports ?? []), TypeOrmModule.forFeature(authEntities(userEntity)), DiscoveryModule],
    controllers,
    providers: [...(definition.providers ?? []), ...providers],
    exports: [AUTH_CONFIG, AUTH_CLOCK, CREDENTIAL_RESOLVER, AuthService, CurrentUserGuard, FreshSignIn, UnitOfWork, RateLimitStorage, AfterResponse],
  };
}

/**
 * Mounts a controller under the configured prefix, behind `AuthRequestGuard` and with
 * `AuthExceptionFilter` for every error of its routes. A subclass per module instance carries the
 * path, so two applications in one process never share (or mutate) route metadata.
 */
function mountUnderPrefix<T extends Type>(controller: T, prefix: string, apiKeys: boolean): T {
  const mounted = class extends controller {};
  Object.defineProperty(mounted, 'name', { value: controller.name });
  Controller(prefix)(mounted);
  UseGuards(AuthRequestGuard)(mounted);
  // With API keys, a key presented to a route other than /me is refused before any other guard of the route, the controller's own included (docs/decisions/0032-api-keys.md).
  if (apiKeys) Reflect.defineMetadata(GUARDS_METADATA, [ApiKeyRefusalGuard, ...((Reflect.getMetadata(GUARDS_METADATA, mounted) as unknown[]) ?? [])], mounted);
  UseFilters(AuthExceptionFilter)(mounted);
  // Under a global guard the library's routes stay open; its /me checks its credential itself.
  Public()(mounted);
  return mounted;
}
