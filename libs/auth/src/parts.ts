import type { Provider, Type } from '@nestjs/common';
import type { Response } from 'express';
import type { LoginMethod } from './config/login-methods.js';
import type { CredentialDevices } from './credentials/credential-devices.js';
import type { CredentialIssuer } from './credentials/credential-issuer.js';
import type { CredentialResolver } from './credentials/credential-resolver.js';
import type { CredentialRevoker } from './credentials/credential-revoker.js';
import type { SvcUser } from './entities/user.entity.js';

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

/** How a user proved who they are: the login method, and the provider for the provider methods. */
export interface LoginProof {
  method: LoginMethod;
  provider?: string;
}

/**
 * What stands between a proven first factor and the credential (README, "Two-step login"): the
 * login completion asks it, inside the login's transaction, whether the user owes a second factor.
 */
export interface SecondFactorGate<C = unknown> {
  /** Null when the login owes nothing more; else the challenge the client must answer (nothing is issued). */
  challengeFor(user: SvcUser, proof: LoginProof): Promise<C | null>;
  /** Hands the challenge to the client: its HttpOnly cookie. */
  deliver(response: Response, challenge: C): void;
}
