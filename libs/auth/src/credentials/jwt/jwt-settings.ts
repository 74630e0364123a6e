import type { Provider } from '@nestjs/common';
import { AUTH_CONFIG } from '../../config/auth.constants.js';
import type { AuthConfig, JwtSigningConfig } from '../../config/auth-config.js';

/** The settings of the jwt credential, from whichever section configures it (docs/decisions/0012-access-tokens-jwt.md). */
export interface JwtSettings {
  readonly secretKey: string;
  readonly algorithm: 'HS256' | 'HS384' | 'HS512';
  readonly accessTokenExpireMinutes: number;
  readonly refreshTokenExpireDays: number;
  readonly refreshReuseGraceSeconds: number;
  /** Absolute lifetime of a refresh family, from its login. */
  readonly refreshFamilyTtlSeconds: number;
  /** `jwt.signing`: the algorithm, the keys, `iss` and `aud` (docs/guides/machine-access.md); absent, HMAC over `secretKey` without them. */
  readonly signing?: JwtSigningConfig;
}

/** Injection token of the jwt credential's `JwtSettings`. */
export const JWT_SETTINGS = Symbol('svc:JWT_SETTINGS');

export const jwtSettingsProvider: Provider = {
  provide: JWT_SETTINGS,
  useFactory: (config: AuthConfig): JwtSettings => {
    // validateAuthOptions guarantees them whenever the credential is jwt.
    if (!config.jwt) throw new TypeError('svc: the jwt credential has no settings');
    return config.jwt;
  },
  inject: [AUTH_CONFIG],
};
