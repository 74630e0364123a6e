// The public API of svc: everything an application imports comes from here.
export { AuthModule } from './auth.module.js';
export { AuthService, type PurgeResult } from './auth.service.js';
export { AUTH_CLOCK } from './config/auth.constants.js';
export type { Clock } from './config/clock.js';
export type { AuthModuleExtras } from './auth.module-definition.js';
export type {
  AuthEntities,
  AuthOptions,
  CookieOptions,
  EmailVerificationOptions,
  JwtOptions,
  JwtSigningKeyOptions,
  JwtSigningOptions,
  MfaOptions,
  PasskeyOptions,
  PasswordOptions,
  PrincipalCacheOptions,
  RateLimitOptions,
  RedisCommands,
  RedisPubSubClient,
  RedisSubscriber,
  RedisUrl,
  SessionOptions,
} from './config/auth-options.js';
export type { AuthStrategy, CredentialKind, LoginEventMethod, LoginMethod } from './config/login-methods.js';
export type {
  OAuth2ProviderOptions,
  OAuthProviderOptionsBase,
  OAuthSectionOptions,
  OidcProviderOptions,
  OidcSigningAlgorithm,
  ProfileColumnsMapper,
  ProfileMapper,
  ProfileMapperContext,
} from './config/oauth-options.js';
export { AuthConfigError } from './config/auth-config.error.js';
export {
  authEntities,
  EmailToken,
  MfaRecoveryCode,
  MfaTotp,
  OAuthAccount,
  Organization,
  OrganizationInvitation,
  OrganizationMember,
  Passkey,
  PasswordResetToken,
  RefreshFamily,
  RefreshToken,
  Session,
  User,
} from './auth.entities.js';
export { SvcUser } from './entities/user.entity.js';
export { authMigrations } from './migrations/index.js';
export { AuthError, type AuthErrorBody } from './errors/auth.error.js';
export { ApplicationError, type ApplicationErrorBody } from './errors/application-error.js';
export { AuthErrorBodyFilter } from './http/auth-error-body.filter.js';
export { AUTH_ERRORS, type AuthErrorCode } from './errors/error-codes.js';
export { AuthEvent, type AuthEventName, type AuthEventPayloads } from './events/auth-events.js';
export type {
  AccountLinkEvent,
  EmailChangedEvent,
  EmailChangeCancelledEvent,
  AccountReclaimedEvent,
  EmailChangeNoticeEvent,
  EmailChangeRequestedEvent,
  EmailVerificationRequestedEvent,
  EmailVerifiedEvent,
  LoginAfterEvent,
  LoginFailureEvent,
  LogoutAfterEvent,
  MfaChangeEvent,
  MfaFailureEvent,
  MfaRecoveryCodeUsedEvent,
  OAuth2LoginAfterEvent,
  OidcLoginAfterEvent,
  PasskeyChangeEvent,
  PasskeyCounterRegressionEvent,
  PasswordChangedEvent,
  PasswordResetRequestedEvent,
  RefreshAfterEvent,
  SessionRevokedEvent,
  SignupAfterEvent,
  TokenReuseDetectedEvent,
} from './events/auth-events.js';
export { OnAuthEvent } from './events/on-auth-event.decorator.js';
export { OptionalAuth, Public } from './credentials/auth-access.decorators.js';
export { CurrentUser } from './credentials/current-user.decorator.js';
export { CurrentUserGuard } from './credentials/current-user.guard.js';
export { RequireVerifiedEmail, VerifiedEmailGuard } from './credentials/verified-email.guard.js';
export type { DeviceBody } from './credentials/devices.controller.js';
export type { PasskeyBody } from './passkeys/passkey-list.service.js';
export type { Principal } from './credentials/credential-resolver.js';
export type {
  AuthHooks,
  ChangeEmailPayload,
  ChangePasswordPayload,
  ForgotPasswordPayload,
  LoginPayload,
  LogoutPayload,
  MfaEnablePayload,
  OAuthLoginPayload,
  RefreshPayload,
  ResetPasswordPayload,
  SendVerificationPayload,
  SignupPayload,
} from './hooks/auth-hooks.js';
export { HookAbort } from './hooks/hook-abort.js';
export { ProviderTimeLimit } from './oauth/provider-time-limit.js';
export { SecretString } from './hooks/secret-string.js';
export { UnitOfWork } from './persistence/unit-of-work.js';
export { MemoryRateLimitStorage } from './rate-limit/memory/memory-rate-limit.storage.js';
export { RateLimit, RateLimitFor, type RateLimitRouteOptions, SkipRateLimit } from './rate-limit/rate-limit.decorators.js';
export { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
export { type RateLimitCheck, RateLimitStorage } from './rate-limit/rate-limit.storage.js';
export { RedisRateLimitStorage } from './rate-limit/redis/redis-rate-limit.storage.js';
export { TypeOrmRateLimitStorage } from './rate-limit/typeorm/typeorm-rate-limit.storage.js';
export type { AccessTokenClaims } from './credentials/jwt/access-token-claims.js';
export type { OAuthUserInfo } from './config/oauth-options.js';
export type { TokenBody } from './credentials/jwt/jwt-credential.issuer.js';
export { SvcInput, SvcReturned } from './users/svc-columns.decorators.js';
/** An email as svc stores and compares it (NFKC, trimmed, lower-cased): for lists an `assignRoles` rule reads. */
export { normalizeEmail } from './users/email.js';
export type { UserBody, UserBodyFeatures, UserBodyOf } from './users/user-body.js';

// Roles and permissions (docs/guides/roles-and-permissions.md).
export type { AuthorizationOptions } from './config/auth-options.js';
export { Permissions, Roles } from './authorization/authorization.decorators.js';
export { AuthorizationGuard } from './authorization/authorization.guard.js';
export { UserRole } from './entities/user-role.entity.js';

// User administration (docs/guides/administration.md): the admin section, its bodies, events and the impersonation restriction.
export type { AdminOptions } from './config/auth-options.js';
export type { AdminLoginMethods, AdminUserDetails, AdminUserPage, AdminUserSummary, UserListQuery } from './admin/admin-bodies.js';
export type { ImpersonationStartedEvent, ImpersonationStoppedEvent, UserActivatedEvent, UserDeactivatedEvent, UserDeletedEvent } from './events/auth-events.js';
export { RestrictedWhileImpersonating } from './credentials/impersonation-restriction.js';

// API keys (docs/guides/machine-access.md): the section, the entity, the bodies and the events.
export type { ApiKeysOptions } from './config/auth-options.js';
export { ApiKey } from './entities/api-key.entity.js';
export type { ApiKeyBody, CreatedApiKeyBody } from './api-keys/api-keys.service.js';
export type { ApiKeyEvent, ApiKeyFacts } from './events/auth-events.js';
// Security notices, svc's own mail, deleting one's account (docs/guides/account-security.md).
export type { SecurityNoticeEvent } from './events/auth-events.js';
export type { MailEnvelope, MailKind, MailMessage, MailOptions, MailTemplate, MailTransport, MailUser, RenderedMail, SecurityNoticeKind } from './config/mail-options.js';
export { defaultMailTemplates } from './mail/default-templates.js';
export { escapeHtml } from './mail/html-escape.js';
// Fresh sign-in (docs/guides/account-security.md): the reauth section and the decorator for an application's routes.
export type { ReauthOptions } from './config/auth-options.js';
export { RequireFreshAuth } from './credentials/require-fresh-auth.decorator.js';
export type { ReauthMethod } from './credentials/fresh-sign-in.js';
// The activity log (docs/guides/account-security.md): the audit section, the writer features record through, its bodies and the notice.
export type { AuditOptions } from './config/auth-options.js';
export { AuditLog, type AuditEntry } from './audit-log/audit-log.js';
export { AUDIT_ACTIONS, type AuditAction } from './audit-log/audit-actions.js';
export type { AuditDetails } from './audit-log/audit-details.js';
export type { ActivityBody, AuditEventBody, AuditEventPage } from './audit/activity-bodies.js';
export { AuditEvent } from './entities/audit-event.entity.js';
// Organizations (docs/guides/organizations.md): the section, the organization guards, bodies and events.
export type { OrganizationsOptions } from './config/auth-options.js';
export { OrgPermissions, OrgRoles } from './organizations/org-authorization.decorators.js';
export { OrgAuthorizationGuard } from './organizations/org-authorization.guard.js';
export type { InvitationBody, OrganizationDetails, OrganizationMemberBody, OrganizationMembership } from './organizations/organization-bodies.js';
export type {
  OrganizationCreatedEvent,
  OrganizationDeletedEvent,
  OrganizationInvitationCreatedEvent,
  OrganizationInvitationMailEvent,
  OrganizationMemberAddedEvent,
  OrganizationMemberRemovedEvent,
  OrganizationMemberRoleChangedEvent,
  OrganizationRef,
} from './events/auth-events.js';
