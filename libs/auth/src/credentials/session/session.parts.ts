import type { CredentialParts } from '../credential-parts.js';
import { SessionReauthentication } from './session-reauthentication.js';
import { DevicesController } from '../devices.controller.js';
import { SessionCookie } from './session-cookie.js';
import { SessionCredentialIssuer } from './session-credential.issuer.js';
import { SessionCredentialResolver } from './session-credential.resolver.js';
import { SessionController } from './session.controller.js';
import { SessionDevices } from './session-devices.js';
import { SessionStore } from './session-store.js';
import { SessionOrganizations } from './session-organizations.js';

/** The session credential: an HttpOnly cookie naming a session row. */
export const sessionCredentialParts: CredentialParts = {
  controllers: [SessionController, DevicesController],
  providers: [SessionStore, SessionCookie, SessionCredentialIssuer, SessionCredentialResolver, SessionDevices, SessionReauthentication, SessionOrganizations],
  issuer: SessionCredentialIssuer,
  resolver: SessionCredentialResolver,
  revoker: SessionStore,
  devices: SessionDevices,
  reauthentication: SessionReauthentication,
  organizations: SessionOrganizations,
};
