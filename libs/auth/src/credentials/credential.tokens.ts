/** Injection token of the credential's `CredentialIssuer` (every login method hands out credentials through it). */
export const CREDENTIAL_ISSUER = Symbol('svc:CREDENTIAL_ISSUER');
/** Injection token of the credential's resolver, used by `CurrentUserGuard`. */
export const CREDENTIAL_RESOLVER = Symbol('svc:CREDENTIAL_RESOLVER');
/** Injection token of the credential's `CredentialRevoker` (password reset ends every credential). */
export const CREDENTIAL_REVOKER = Symbol('svc:CREDENTIAL_REVOKER');
/** Injection token of the credential's `CredentialDevices` (GET and DELETE /sessions). */
export const CREDENTIAL_DEVICES = Symbol('svc:CREDENTIAL_DEVICES');
/** Injection token of the credential's `CredentialReauthentication` (POST /reauth and the other re-authentications). */
export const CREDENTIAL_REAUTHENTICATION = Symbol('svc:CREDENTIAL_REAUTHENTICATION');
/** Injection token of the credential's `CredentialOrganizations` (POST /organizations/{id}/activate). */
export const CREDENTIAL_ORGANIZATIONS = Symbol('svc:CREDENTIAL_ORGANIZATIONS');
