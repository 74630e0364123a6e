import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import { CREDENTIAL_ISSUER } from '../auth.constants.js';
import type { LoginMethod } from '../config/login-methods.js';
import { CredentialDelivery, type LoginResult } from '../credentials/credential-delivery.js';
import type { CredentialIssuer } from '../credentials/credential-issuer.js';
import type { SvcUser } from '../entities/user.entity.js';

/** How a user proved who they are: the login method, and the provider for the provider methods. */
export interface LoginProof {
  method: LoginMethod;
  provider?: string;
}

/** What a login method's transaction staged: a credential to deliver once it has committed. */
export type StagedLogin = { outcome: 'signed-in'; login: LoginResult };

/**
 * The one step between a login method and the credential's delivery (README, "Two-step login"):
 * inside the login's transaction it stages what the user is owed, and once that has committed it
 * answers with it, as JSON (password login) or as a redirect (a provider's callback).
 */
@Injectable()
export class LoginCompletion {
  constructor(
    @Inject(CREDENTIAL_ISSUER) private readonly issuer: CredentialIssuer,
    private readonly delivery: CredentialDelivery,
  ) {}

  /** In the login's transaction, with the user's row as it now stands. */
  async stage(manager: EntityManager, user: SvcUser, request: Request, proof: LoginProof): Promise<StagedLogin> {
    return { outcome: 'signed-in', login: { user, credential: await this.issuer.issue(manager, user, request), ...proof } };
  }

  /** The answer of a login that took a JSON body. */
  asJson(request: Request, response: Response, staged: StagedLogin): object {
    return this.delivery.asJson(request, response, staged.login);
  }

  /** The answer of a provider's callback: a redirect to `location`. Returns the user signed in. */
  asRedirect(request: Request, response: Response, staged: StagedLogin, location: string): SvcUser | null {
    this.delivery.asRedirect(request, response, staged.login, location);
    return staged.login.user;
  }
}
