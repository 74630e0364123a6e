import type { CredentialParts } from '../../parts.js';
import { AccessTokenService } from './access-token.service.js';
import { AccessTokenStrategy } from './access-token.strategy.js';
import { JwtCredentialIssuer } from './jwt-credential.issuer.js';
import { JwtCredentialResolver } from './jwt-credential.resolver.js';
import { JwtLogout } from './jwt-logout.service.js';
import { jwtSettingsProvider } from './jwt-settings.js';
import { JwtController } from './jwt.controller.js';
import { RefreshCookie } from './refresh-cookie.js';
import { RefreshFamilyStore } from './refresh-family-store.js';
import { RefreshRotation } from './refresh-rotation.service.js';
import { RefreshTokenStore } from './refresh-token-store.js';

/** The jwt credential: a short-lived bearer access token and a single-use rotating refresh cookie. */
export const jwtCredentialParts: CredentialParts = {
  controllers: [JwtController],
  providers: [
    jwtSettingsProvider,
    AccessTokenService,
    AccessTokenStrategy,
    RefreshTokenStore,
    RefreshFamilyStore,
    RefreshRotation,
    RefreshCookie,
    JwtCredentialIssuer,
    JwtCredentialResolver,
    JwtLogout,
  ],
  issuer: JwtCredentialIssuer,
  resolver: JwtCredentialResolver,
  revoker: RefreshTokenStore,
};
