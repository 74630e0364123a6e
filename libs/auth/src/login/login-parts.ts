import type { Provider, Type } from '@nestjs/common';
import type { Response } from 'express';
import type { LoginMethod } from '../config/login-methods.js';
import type { SvcUser } from '../entities/user.entity.js';

/** Injection token of the `SecondFactorGate` a login completes through (docs/guides/two-step.md). */
export const SECOND_FACTOR_GATE = Symbol('svc:SECOND_FACTOR_GATE');

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
 * What stands between a proven first factor and the credential (docs/guides/two-step.md): the
 * login completion asks it, inside the login's transaction, whether the user owes a second factor.
 */
export interface SecondFactorGate<C = unknown> {
  /** Null when the login owes nothing more; else the challenge the client must answer (nothing is issued). */
  challengeFor(user: SvcUser, proof: LoginProof): Promise<C | null>;
  /** Hands the challenge to the client: its HttpOnly cookie. */
  deliver(response: Response, challenge: C): void;
}
