import type { AuthStrategy, CredentialKind, LoginEventMethod, OAuthMethod } from '../config/login-methods.js';
import type { SecurityNoticeKind } from '../config/mail-options.js';
import type { OAuthUserInfo } from '../config/oauth-options.js';
import type { UserBody } from '../users/user-body.js';

/** Names of the events observers listen to (docs/guides/application.md). */
export const AuthEvent = {
  SignupAfter: 'svc.signup.after',
  LoginAfter: 'svc.login.after',
  LoginFailure: 'svc.login.failure',
  LogoutAfter: 'svc.logout.after',
  RefreshAfter: 'svc.refresh.after',
  TokenReuseDetected: 'svc.token_reuse_detected',
  PasswordResetRequested: 'svc.password.reset_requested',
  PasswordChanged: 'svc.password.changed',
  OAuth2LoginAfter: 'svc.oauth2.login.after',
  OidcLoginAfter: 'svc.oidc.login.after',
  AccountLinked: 'svc.account.linked',
  AccountUnlinked: 'svc.account.unlinked',
  EmailVerificationRequested: 'svc.email.verification_requested',
  EmailVerified: 'svc.email.verified',
  EmailChangeRequested: 'svc.email.change_requested',
  EmailChangeNotice: 'svc.email.change_notice',
  EmailChanged: 'svc.email.changed',
  EmailChangeCancelled: 'svc.email.change_cancelled',
  AccountReclaimed: 'svc.account.reclaimed',
  SessionRevoked: 'svc.session.revoked',
  MfaEnabled: 'svc.mfa.enabled',
  MfaDisabled: 'svc.mfa.disabled',
  MfaFailure: 'svc.mfa.failure',
  MfaRecoveryCodeUsed: 'svc.mfa.recovery_code_used',
  PasskeyRegistered: 'svc.passkey.registered',
  PasskeyRemoved: 'svc.passkey.removed',
  PasskeyCounterRegression: 'svc.passkey.counter_regression',
  UserDeactivated: 'svc.user.deactivated',
  UserActivated: 'svc.user.activated',
  UserDeleted: 'svc.user.deleted',
  ImpersonationStarted: 'svc.impersonation.started',
  ImpersonationStopped: 'svc.impersonation.stopped',
  ApiKeyCreated: 'svc.api_key.created',
  ApiKeyRevoked: 'svc.api_key.revoked',
  SecurityNotice: 'svc.security.notice',
  OrganizationCreated: 'svc.organization.created',
  OrganizationDeleted: 'svc.organization.deleted',
  OrganizationMemberAdded: 'svc.organization.member_added',
  OrganizationMemberRemoved: 'svc.organization.member_removed',
  OrganizationMemberRoleChanged: 'svc.organization.member_role_changed',
  OrganizationInvitationCreated: 'svc.organization.invitation_created',
  OrganizationInvitationMail: 'svc.organization.invitation_mail',
} as const;

export type AuthEventName = (typeof AuthEvent)[keyof typeof AuthEvent];

export interface SignupAfterEvent {
  user: UserBody;
}

/** Every login, whatever the method (the method's own event, such as `svc.oidc.login.after`, fires too). */
export interface LoginAfterEvent {
  user: UserBody;
  /**
   * The seed's name for how the user signed in: the credential (`session`, `jwt`) for a password or
   * passkey login (a two-step login's included), the method (`oauth2`, `oidc`) for a provider login.
   */
  strategy: AuthStrategy;
  /** How the user proved who they are: a login method, or a passkey. */
  method: LoginEventMethod;
  /** The provider's name, for the provider methods. */
  provider?: string;
  /** The credential the login was given. */
  credential: CredentialKind;
}

/** LoginFailure: a failed login. `email` is as typed (normalised); never a password. */
export interface LoginFailureEvent {
  email: string;
  /** `email_not_verified`: the right password, refused under `emailVerification.required`. */
  reason: 'unknown_email' | 'bad_password' | 'inactive' | 'email_not_verified';
  ip: string | null;
  at: Date;
}

export interface LogoutAfterEvent {
  userId: string;
}

export interface RefreshAfterEvent {
  userId: string;
  familyId: string;
}

export interface TokenReuseDetectedEvent {
  userId: string;
  familyId: string;
  ip: string | null;
  at: Date;
}

/** PasswordResetRequested: the application mails `link` (it carries `token`) to `user.email`. */
export interface PasswordResetRequestedEvent {
  user: UserBody;
  token: string;
  /** `<baseUrl><password.resetPath>?token=<token>` */
  link: string;
  expiresAt: Date;
}

/** PasswordChanged. */
export interface PasswordChangedEvent {
  userId: string;
  at: Date;
}

/** OAuth2LoginResult: an oauth2 login, with the provider's tokens (svc never stores them). */
export interface OAuth2LoginAfterEvent {
  user: UserBody;
  userInfo: OAuthUserInfo;
  providerAccessToken: string;
  providerRefreshToken: string | null;
}

/** An oidc login: who the verified id_token (and userinfo) said the user is. */
export interface OidcLoginAfterEvent {
  user: UserBody;
  userInfo: OAuthUserInfo;
}

/** An identity at a provider linked to a user, or unlinked from it (docs/guides/linking.md). */
export interface AccountLinkEvent {
  user: UserBody;
  method: OAuthMethod;
  provider: string;
}

/** EmailVerificationRequested: the application mails `link` (which carries `token`) to `user.email`. */
export interface EmailVerificationRequestedEvent {
  user: UserBody;
  token: string;
  /** `<baseUrl><emailVerification.verifyPath>?token=<token>` */
  link: string;
}

/** EmailVerified: a verification link was used. */
export interface EmailVerifiedEvent {
  userId: string;
  at: Date;
}

/** EmailChangeRequested: the application mails `link` (which carries `token`) to `newEmail`, not to `user.email`. */
export interface EmailChangeRequestedEvent {
  user: UserBody;
  newEmail: string;
  token: string;
  /** `<baseUrl><emailVerification.confirmPath>?token=<token>` */
  link: string;
}

/**
 * EmailChangeNotice: a message to `to`. `change_requested`: to the user's current address, whenever
 * a change is asked for, with `link` (which carries `token`) to cancel it; `address_taken`: to the new
 * address instead of the confirmation, when another account holds it (the request's answer does not
 * say so), without a link.
 */
export interface EmailChangeNoticeEvent {
  user: UserBody;
  to: string;
  reason: 'change_requested' | 'address_taken';
  /** `change_requested` only: the cancel token. */
  token?: string;
  /** `change_requested` only: `<baseUrl><emailVerification.cancelPath>?token=<token>` */
  link?: string;
}

/** EmailChangeCancelled: a notice's cancel link was used; the pending change is void and every credential of the user ended. */
export interface EmailChangeCancelledEvent {
  userId: string;
  at: Date;
}

/**
 * AccountReclaimed: the first proof of the user's mailbox (a verification link, or a password reset)
 * ended every earlier credential and pending change of email and removed what was added before it,
 * counted: linked identities, passkeys, and `totp` 1 when an enabled authenticator app was removed, else 0.
 */
export interface AccountReclaimedEvent {
  user: UserBody;
  removed: { identities: number; passkeys: number; totp: number };
}

/** EmailChanged: a change was confirmed; the user's email is `to`, verified. */
export interface EmailChangedEvent {
  userId: string;
  from: string;
  to: string;
  at: Date;
}

/** A session (or jwt refresh family) ended through DELETE /sessions, one event per id (docs/guides/devices.md). */
export interface SessionRevokedEvent {
  userId: string;
  /** The session's id, or the refresh family's. */
  sessionId: string;
  /** Who ended it: the user, from one of their devices. */
  by: 'user';
}

/** Two-step login turned on or off for a user (docs/guides/two-step.md); `at` by the injected clock. */
export interface MfaChangeEvent {
  userId: string;
  at: Date;
}

/**
 * A wrong code at a two-step step: `verify` (the login's challenge, `method` says which kind was
 * tried) or a settings route (`enable`, `disable`, `regenerate`). Never the code itself.
 */
export interface MfaFailureEvent {
  userId: string;
  step: 'verify' | 'enable' | 'disable' | 'regenerate';
  method: 'totp' | 'recovery_code';
  reason: 'wrong_code' | 'replayed_code';
  ip: string | null;
  at: Date;
}

/** A passkey added to the user's account, or removed from it (docs/guides/passkeys.md). */
export interface PasskeyChangeEvent {
  user: UserBody;
  passkeyId: string;
  name: string;
}

/**
 * A passkey login whose signature was valid but whose signature counter did not go forward
 * (WebAuthn L2 §6.1.1): the authenticator may have been cloned. The login was refused.
 */
export interface PasskeyCounterRegressionEvent {
  userId: string;
  passkeyId: string;
  storedCounter: number;
  presentedCounter: number;
  ip: string | null;
  at: Date;
}

/** A recovery code was spent at /mfa/verify; `remaining` unused codes are left. */
export interface MfaRecoveryCodeUsedEvent {
  userId: string;
  remaining: number;
  at: Date;
}

/**
 * A user deactivated (every credential refused from then on) or activated again, by an
 * administrator (`actorId`) or the application's own code (`actorId` null; docs/guides/administration.md).
 */
export interface UserDeactivatedEvent {
  user: UserBody;
  actorId: string | null;
  /** What the administrator wrote, if anything (at most 500 characters). */
  reason: string | null;
}

export interface UserActivatedEvent {
  user: UserBody;
  actorId: string | null;
}

/** A user and every row that belonged to it deleted, by an administrator or the application's own code. */
export interface UserDeletedEvent {
  userId: string;
  actorId: string | null;
}

/** An administrator (`actorId`) started acting as `user`, or stopped (docs/guides/administration.md). */
export interface ImpersonationStartedEvent {
  user: UserBody;
  actorId: string;
}

export interface ImpersonationStoppedEvent {
  userId: string;
  actorId: string;
}

/** What an API key event says of the key: never the key, nor its hash (docs/guides/machine-access.md). */
export interface ApiKeyFacts {
  id: string;
  name: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date | null;
}

/** A user created an API key, or revoked one. */
export interface ApiKeyEvent {
  user: UserBody;
  apiKey: ApiKeyFacts;
}

/**
 * SecurityNotice: a message to `user.email` about a change to how the account is reached, sent after
 * the change committed (OWASP ASVS 5.0 V6.3.7, V7.2.4: notify the user of changes to their
 * authentication). Never a token or a secret; `ip` and `userAgent` are the request's that made the change.
 */
export interface SecurityNoticeEvent {
  user: UserBody;
  notice: SecurityNoticeKind;
  ip: string | null;
  userAgent: string | null;
}

/** An organization as the events name it. */
export interface OrganizationRef {
  id: string;
  name: string;
  slug: string;
}

/** An organization created by `actorId`, who became its member with the creator role (docs/guides/organizations.md). */
export interface OrganizationCreatedEvent {
  organization: OrganizationRef;
  actorId: string;
}

/** An organization deleted by `actorId`, with its members and invitations. */
export interface OrganizationDeletedEvent {
  organizationId: string;
  actorId: string;
}

/** A user joined an organization with `role` (an accepted invitation: `invitationId`). */
export interface OrganizationMemberAddedEvent {
  organizationId: string;
  userId: string;
  role: string;
  invitationId: string | null;
}

/** A member removed by `actorId` (the member itself when it left). */
export interface OrganizationMemberRemovedEvent {
  organizationId: string;
  userId: string;
  actorId: string;
}

export interface OrganizationMemberRoleChangedEvent {
  organizationId: string;
  userId: string;
  from: string;
  to: string;
  actorId: string;
}

/** An invitation created by `invitedBy`; never its token (the mail event carries it). */
export interface OrganizationInvitationCreatedEvent {
  organizationId: string;
  invitationId: string;
  email: string;
  role: string;
  invitedBy: string;
  expiresAt: Date;
}

/**
 * OrganizationInvitationMail: the application mails `link` (which carries `token`) to `to`, kind
 * `organization_invitation`. The one event that carries the invitation's token.
 */
export interface OrganizationInvitationMailEvent {
  to: string;
  organization: OrganizationRef;
  role: string;
  invitationId: string;
  invitedBy: string;
  token: string;
  /** `<baseUrl><organizations.invitationPath>?token=<token>` */
  link: string;
  expiresAt: Date;
}

export interface AuthEventPayloads {
  'svc.signup.after': SignupAfterEvent;
  'svc.login.after': LoginAfterEvent;
  'svc.login.failure': LoginFailureEvent;
  'svc.logout.after': LogoutAfterEvent;
  'svc.refresh.after': RefreshAfterEvent;
  'svc.token_reuse_detected': TokenReuseDetectedEvent;
  'svc.password.reset_requested': PasswordResetRequestedEvent;
  'svc.password.changed': PasswordChangedEvent;
  'svc.oauth2.login.after': OAuth2LoginAfterEvent;
  'svc.oidc.login.after': OidcLoginAfterEvent;
  'svc.account.linked': AccountLinkEvent;
  'svc.account.unlinked': AccountLinkEvent;
  'svc.email.verification_requested': EmailVerificationRequestedEvent;
  'svc.email.verified': EmailVerifiedEvent;
  'svc.email.change_requested': EmailChangeRequestedEvent;
  'svc.email.change_notice': EmailChangeNoticeEvent;
  'svc.email.changed': EmailChangedEvent;
  'svc.email.change_cancelled': EmailChangeCancelledEvent;
  'svc.account.reclaimed': AccountReclaimedEvent;
  'svc.session.revoked': SessionRevokedEvent;
  'svc.mfa.enabled': MfaChangeEvent;
  'svc.mfa.disabled': MfaChangeEvent;
  'svc.mfa.failure': MfaFailureEvent;
  'svc.mfa.recovery_code_used': MfaRecoveryCodeUsedEvent;
  'svc.passkey.registered': PasskeyChangeEvent;
  'svc.passkey.removed': PasskeyChangeEvent;
  'svc.passkey.counter_regression': PasskeyCounterRegressionEvent;
  'svc.user.deactivated': UserDeactivatedEvent;
  'svc.user.activated': UserActivatedEvent;
  'svc.user.deleted': UserDeletedEvent;
  'svc.impersonation.started': ImpersonationStartedEvent;
  'svc.impersonation.stopped': ImpersonationStoppedEvent;
  'svc.api_key.created': ApiKeyEvent;
  'svc.api_key.revoked': ApiKeyEvent;
  'svc.security.notice': SecurityNoticeEvent;
  'svc.organization.created': OrganizationCreatedEvent;
  'svc.organization.deleted': OrganizationDeletedEvent;
  'svc.organization.member_added': OrganizationMemberAddedEvent;
  'svc.organization.member_removed': OrganizationMemberRemovedEvent;
  'svc.organization.member_role_changed': OrganizationMemberRoleChangedEvent;
  'svc.organization.invitation_created': OrganizationInvitationCreatedEvent;
  'svc.organization.invitation_mail': OrganizationInvitationMailEvent;
}
