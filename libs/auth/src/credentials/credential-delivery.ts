import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { CREDENTIAL_ISSUER } from '../auth.constants.js';
import type { LoginMethod } from '../config/login-methods.js';
import type { SvcUser } from '../entities/user.entity.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import type { CredentialIssuer } from './credential-issuer.js';

/** What a login method hands to the delivery step: who signed in, how, and the credential it staged. */
export interface LoginResult {
  user: SvcUser;
  /** Staged by the credential's issuer in the login's transaction, which has committed. */
  credential: unknown;
  method: LoginMethod;
  /** The OAuth provider's name, for the provider methods. */
  provider?: string;
}

/** A signup: the new user, and its credential when the credential logs new users in. */
export interface SignupResult {
  user: SvcUser;
  credential?: unknown;
}

/**
 * The one step that hands a credential to the client, whatever the login method: the credential's
 * cookie, and a JSON body (password login, signup) or a redirect (a provider's callback).
 */
@Injectable()
export class CredentialDelivery {
  constructor(
    @Inject(CREDENTIAL_ISSUER) private readonly issuer: CredentialIssuer,
    private readonly serializer: UserSerializer,
  ) {}

  /** The credential's cookie and its JSON answer (the user body, or the token body). */
  asJson(response: Response, login: LoginResult): object {
    return this.issuer.deliverAsJson(response, login.credential, login.user);
  }

  /** The credential's cookie, and a redirect to `location` (an access token never travels in a URL). */
  asRedirect(response: Response, login: LoginResult, location: string): void {
    this.issuer.deliverAsRedirect(response, login.credential, location);
  }

  /** The signup's answer: as a login when the new user is signed in, else the user body alone. */
  signup(response: Response, signup: SignupResult): object {
    if (signup.credential === undefined) return this.serializer.serialize(signup.user);
    return this.issuer.deliverAsJson(response, signup.credential, signup.user);
  }
}
