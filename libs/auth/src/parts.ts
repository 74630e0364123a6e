import type { Provider, Type } from '@nestjs/common';
import type { CredentialDevices } from './credentials/credential-devices.js';
import type { CredentialIssuer } from './credentials/credential-issuer.js';
import type { CredentialResolver } from './credentials/credential-resolver.js';
import type { CredentialRevoker } from './credentials/credential-revoker.js';

/** What the credential a user is given (session or jwt) adds to the module. */
export interface CredentialParts {
  /** Its own routes: logout, me, the devices (and refresh for jwt). */
  controllers: Type[];
  providers: Provider[];
  issuer: Type<CredentialIssuer>;
  resolver: Type<CredentialResolver>;
  revoker: Type<CredentialRevoker>;
  devices: Type<CredentialDevices>;
}

/** What a login method (password, OAuth 2.0, OpenID Connect) adds: only its own routes and services. */
export interface LoginMethodParts {
  controllers: Type[];
  providers: Provider[];
}
