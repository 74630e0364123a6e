import type { Provider, Type } from '@nestjs/common';
import { AUTH_CONFIG } from '../../config/auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import type { CredentialKind } from '../../config/login-methods.js';
import { CREDENTIAL_DEVICES, CREDENTIAL_ISSUER, CREDENTIAL_ORGANIZATIONS, CREDENTIAL_REAUTHENTICATION, CREDENTIAL_RESOLVER, CREDENTIAL_REVOKER } from '../credential.tokens.js';
import type { CredentialParts } from '../credential-parts.js';
import type { CredentialIssuer } from '../credential-issuer.js';
import { jwtCredentialParts } from '../jwt/jwt.parts.js';
import { JwtCredentialIssuer } from '../jwt/jwt-credential.issuer.js';
import { NativeAwareDevices } from './native-aware.devices.js';
import { NativeAwareIssuer } from './native-aware.issuer.js';
import { NativeAwareOrganizations } from './native-aware.organizations.js';
import { NativeAwareReauthentication } from './native-aware.reauthentication.js';
import { NativeAwareResolver } from './native-aware.resolver.js';
import { NativeAwareRevoker } from './native-aware.revoker.js';
import { NativeRefreshController } from './native-refresh.controller.js';
import { NativeTokens } from './native-tokens.service.js';

/** What `nativeClients: true` adds to a module whose browser credential is `kind` (docs/guides/machine-access.md). */
export interface NativeClientParts {
  controllers: Type[];
  providers: Provider[];
  /** The providers of the credential tokens (`CREDENTIAL_ISSUER`...), replacing the credential's own. */
  credentialTokens: Provider[];
}

/**
 * Under the jwt credential, native clients share its refresh families and bearer resolver: only
 * the issuer (body, no cookie) and the refresh and logout routes (token in the body) change. Under
 * the session credential, the jwt credential's services come too, and the resolver, revoker and
 * devices cover both.
 */
export function nativeClientParts(kind: CredentialKind, browser: CredentialParts): NativeClientParts {
  const issuer: Provider = {
    provide: CREDENTIAL_ISSUER,
    useFactory: (own: CredentialIssuer, jwt: JwtCredentialIssuer, config: AuthConfig) => new NativeAwareIssuer(own, jwt, config),
    inject: [browser.issuer, JwtCredentialIssuer, AUTH_CONFIG],
  };
  if (kind === 'jwt') {
    return {
      controllers: [],
      providers: [NativeTokens],
      credentialTokens: [
        issuer,
        { provide: CREDENTIAL_RESOLVER, useExisting: browser.resolver },
        { provide: CREDENTIAL_REVOKER, useExisting: browser.revoker },
        { provide: CREDENTIAL_DEVICES, useExisting: browser.devices },
        { provide: CREDENTIAL_REAUTHENTICATION, useExisting: browser.reauthentication },
        { provide: CREDENTIAL_ORGANIZATIONS, useExisting: browser.organizations },
      ],
    };
  }
  const jwt = jwtCredentialParts;
  return {
    controllers: [NativeRefreshController],
    providers: [...jwt.providers, NativeTokens],
    credentialTokens: [
      issuer,
      { provide: CREDENTIAL_RESOLVER, useFactory: (own, bearer) => new NativeAwareResolver(own, bearer), inject: [browser.resolver, jwt.resolver] },
      { provide: CREDENTIAL_REVOKER, useFactory: (own, families) => new NativeAwareRevoker(own, families), inject: [browser.revoker, jwt.revoker] },
      { provide: CREDENTIAL_DEVICES, useFactory: (own, families) => new NativeAwareDevices(own, families), inject: [browser.devices, jwt.devices] },
      { provide: CREDENTIAL_REAUTHENTICATION, useFactory: (own, families) => new NativeAwareReauthentication(own, families), inject: [browser.reauthentication, jwt.reauthentication] },
      { provide: CREDENTIAL_ORGANIZATIONS, useFactory: (own, families) => new NativeAwareOrganizations(own, families), inject: [browser.organizations, jwt.organizations] },
    ],
  };
}
