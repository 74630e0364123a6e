import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import { CREDENTIAL_ISSUER } from './credential.tokens.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { AuthStrategy, CredentialKind, LoginEventMethod } from '../config/login-methods.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import type { CredentialIssuer } from './credential-issuer.js';
import { NativeCredential } from './native/native-credential.js';

/** What a login method hands to the delivery step: who signed in, how, and the credential it staged. */
export interface LoginResult {
  user: SvcUser;
  /** Staged by the credential's issuer in the login's transaction, which has committed. */
  credential: unknown;
  method: LoginEventMethod;
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
 * cookie, and a JSON body (password login, signup) or a redirect (a provider's callback). Every
 * login ends here, so `svc.login.after` is published here, once.
 */
@Injectable()
export class CredentialDelivery {
  constructor(
    @Inject(CREDENTIAL_ISSUER) private readonly issuer: CredentialIssuer,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly serializer: UserSerializer,
    private readonly events: AuthEventPublisher,
  ) {}

  /** The credential's cookie and its JSON answer (the user body, or the token body). */
  asJson(request: Request, response: Response, login: LoginResult): object {
    this.announce(request, login);
    return this.issuer.deliverAsJson(response, login.credential, login.user);
  }

  /** The credential's cookie, and a redirect to `location` (an access token never travels in a URL). */
  asRedirect(request: Request, response: Response, login: LoginResult, location: string): void {
    this.announce(request, login);
    this.issuer.deliverAsRedirect(response, login.credential, location);
  }

  /**
   * An impersonation's answer (docs/guides/administration.md): the credential's cookie and JSON body
   * exactly as a login's, without announcing a login (`svc.impersonation.started` says what happened).
   */
  asImpersonation(response: Response, credential: unknown, user: SvcUser): object {
    return this.issuer.deliverAsJson(response, credential, user);
  }

  /** The signup's answer: as a login when the new user is signed in, else the user body alone. */
  signup(response: Response, signup: SignupResult): object {
    if (signup.credential === undefined) return this.serializer.serialize(signup.user);
    return this.issuer.deliverAsJson(response, signup.credential, signup.user);
  }

  private announce(request: Request, { user, method, provider, credential: issued }: LoginResult): void {
    // A native client's login issued the jwt credential, whatever the module's (docs/guides/machine-access.md).
    const credential: CredentialKind = issued instanceof NativeCredential ? 'jwt' : this.config.credential;
    const payload = { user: this.serializer.serialize(user), strategy: strategyOf(method, credential), method, ...(provider === undefined ? {} : { provider }), credential };
    this.events.publishAfterResponse(request, AuthEvent.LoginAfter, payload);
  }
}

/** The seed's `strategy` of a login: the provider method for a provider login, else the credential (docs/reference/events.md). */
function strategyOf(method: LoginEventMethod, credential: CredentialKind): AuthStrategy {
  return method === 'oauth2' || method === 'oidc' ? method : credential;
}
