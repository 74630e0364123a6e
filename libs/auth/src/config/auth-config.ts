import type { Type } from '@nestjs/common';
import type { SvcUser } from '../entities/user.entity.js';
import type { AuthStrategy } from './auth-options.js';

/** The validated, defaulted and frozen configuration every service reads. */
export interface AuthConfig {
  readonly strategy: AuthStrategy;
  /** Absolute, without a trailing slash. */
  readonly baseUrl: string;
  readonly prefix: string;
  /** Origins allowed for cookie-authenticated unsafe requests (the base URL's first). */
  readonly trustedOrigins: readonly string[];
  readonly bodyLimitBytes: number;
  readonly hookTimeoutSeconds: number;
  readonly userEntity: Type<SvcUser>;
  readonly jwt?: {
    readonly secretKey: string;
    readonly algorithm: 'HS256' | 'HS384' | 'HS512';
    readonly accessTokenExpireMinutes: number;
    readonly refreshTokenExpireDays: number;
    readonly refreshReuseGraceSeconds: number;
  };
  readonly session: {
    readonly expireDays: number;
    readonly maxPerUser: number;
    readonly loginOnSignup: boolean;
  };
  readonly cookie: {
    readonly sessionName: string;
    readonly refreshName: string;
    readonly oauthStateName: string;
    readonly secure: boolean;
    readonly sameSite: 'lax' | 'strict' | 'none';
    readonly path: string;
    readonly domain?: string;
  };
  readonly password: {
    readonly minLength: number;
    readonly maxLength: number;
    readonly bcryptCost: number;
    readonly resetTokenTtlMinutes: number;
  };
  readonly rateLimit?: {
    readonly windowSeconds: number;
    readonly max: number;
    readonly trustedIpHeader?: string;
    readonly backend: 'memory' | 'database' | 'redis';
    readonly onBackendError: 'deny' | 'allow';
    readonly redis?: unknown;
    readonly memoryMaxKeys: number;
  };
}
