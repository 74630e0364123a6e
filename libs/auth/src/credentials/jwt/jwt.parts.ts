import type { CredentialParts } from '../credential-parts.js';
import { JwtReauthentication } from './jwt-reauthentication.js';
import { DevicesController } from '../devices.controller.js';
import { AccessTokenService } from './access-token.service.js';
import { AccessTokenVerifier } from './access-token.verifier.js';
import { JwtCredentialIssuer } from './jwt-credential.issuer.js';
import { JwtCredentialResolver } from './jwt-credential.resolver.js';
import { JwtDevices } from './jwt-devices.js';
import { jwtKeyRingProvider } from './jwt-key-ring.js';
import { JwksController } from './jwks.controller.js';
import { JwtLogout } from './jwt-logout.service.js';
import { JwtOrganizations } from './jwt-organizations.js';
import { jwtSettingsProvider } from './jwt-settings.js';
import { JwtController } from './jwt.controller.js';
import { RefreshCookie } from './refresh-cookie.js';
import { RefreshFamilyStore } from './refresh-family-store.js';
import { RefreshOutcomes } from './refresh-outcomes.js';
import { RefreshRotation } from './refresh-rotation.service.js';
import { RefreshTokenStore } from './refresh-token-store.js';

/** The jwt credential: a short-lived bearer access token and a single-use rotating refresh cookie. */
export const jwtCredentialParts: CredentialParts = {
  controllers: [JwtController, DevicesController, JwksController],
  providers: [
    jwtSettingsProvider,
    jwtKeyRingProvider,
    AccessTokenService,
    AccessTokenVerifier,
    RefreshTokenStore,
    RefreshFamilyStore,
    RefreshRotation,
    RefreshOutcomes,
    RefreshCookie,
    JwtCredentialIssuer,
    JwtCredentialResolver,
    JwtLogout,
    JwtDevices,
    JwtReauthentication,
    JwtOrganizations,
  ],
  issuer: JwtCredentialIssuer,
  resolver: JwtCredentialResolver,
  revoker: RefreshTokenStore,
  devices: JwtDevices,
  reauthentication: JwtReauthentication,
  organizations: JwtOrganizations,
};
