/** Injection token of the validated, frozen `AuthConfig`. */
export const AUTH_CONFIG = Symbol('svc:AUTH_CONFIG');
/** Injection token of the application's hook provider (an `AuthHooks` instance). */
export const AUTH_HOOKS = Symbol('svc:AUTH_HOOKS');
/** Injection token of the `Clock` every expiry decision reads. */
export const AUTH_CLOCK = Symbol('svc:AUTH_CLOCK');
/** Injection token of the request schemas built at startup. */
export const AUTH_SCHEMAS = Symbol('svc:AUTH_SCHEMAS');
/** Injection token of the credential's `CredentialIssuer` (every login method hands out credentials through it). */
export const CREDENTIAL_ISSUER = Symbol('svc:CREDENTIAL_ISSUER');
/** Injection token of the credential's resolver, used by `CurrentUserGuard`. */
export const CREDENTIAL_RESOLVER = Symbol('svc:CREDENTIAL_RESOLVER');
/** Injection token of the credential's `CredentialRevoker` (password reset ends every credential). */
export const CREDENTIAL_REVOKER = Symbol('svc:CREDENTIAL_REVOKER');
/** Injection token of the credential's `CredentialDevices` (GET and DELETE /sessions). */
export const CREDENTIAL_DEVICES = Symbol('svc:CREDENTIAL_DEVICES');
/** Name of the logger every library message goes to. */
export const SVC_LOGGER = 'svc';
/** Injection token of the `SecondFactorGate` a login completes through (README, "Two-step login"). */
export const SECOND_FACTOR_GATE = Symbol('svc:SECOND_FACTOR_GATE');
