import type { Provider, Type } from '@nestjs/common';
import type { CredentialDevices } from './credential-devices.js';
import type { CredentialIssuer } from './credential-issuer.js';
import type { CredentialReauthentication } from './credential-reauthentication.js';
import type { CredentialOrganizations } from './credential-organizations.js';
import type { CredentialResolver } from './credential-resolver.js';
import type { CredentialRevoker } from './credential-revoker.js';

/** What the credential a user is given (session or jwt) adds to the module. */
export interface CredentialParts {
  /** Its own routes: logout, me, the devices (and refresh for jwt). */
  controllers: Type[];
  providers: Provider[];
  issuer: Type<CredentialIssuer>;
  resolver: Type<CredentialResolver>;
  revoker: Type<CredentialRevoker>;
  devices: Type<CredentialDevices>;
  /** How a re-authentication renews the credential's sign-in (docs/decisions/0028-fresh-sign-in.md). */
  reauthentication: Type<CredentialReauthentication>;
  /** Where the credential records its active organization (docs/guides/organizations.md). */
  organizations: Type<CredentialOrganizations>;
}
