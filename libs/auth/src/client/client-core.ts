import { AuthStore } from './auth-store.js';
import type { ClientClock } from './client-clock.js';
import { bodyOf, codeOf, errorOf, type HttpAnswer, type HttpChannel, type HttpRequest } from './http-channel.js';
import { SvcClientError } from './svc-client-error.js';
import { type RefreshTokenStorage, TokenKeeper } from './token-keeper.js';
import type { ClientUser, SecondFactorRequired, TokenBody } from './wire-types.js';

/** A request of a route method: public routes present no credential. */
export type CallSpec = Omit<HttpRequest, 'bearer'> & { credential?: boolean };

/** What an answer that may carry a credential turned into. */
export type SignInOutcome = { status: 'signed-in'; user: ClientUser } | { status: 'two-step-required'; methods: SecondFactorRequired['methods'] };

/**
 * The client's state machine: sends requests with the credential (session cookie, or a bearer
 * token kept by `TokenKeeper`), retries once after a refresh when an access token was refused, and
 * keeps the store in step with what the server answered.
 */
export class ClientCore {
  readonly store = new AuthStore();
  /** jwt and native clients: the access token and its renewal; session clients: null. */
  readonly keeper: TokenKeeper | null;

  constructor(
    readonly http: HttpChannel,
    tokens: boolean,
    clock: ClientClock,
    storage: RefreshTokenStorage | null,
  ) {
    this.keeper = tokens ? new TokenKeeper(http, clock, storage, () => this.store.signedOut()) : null;
  }

  /** Sends `spec`, and answers its body or throws its `SvcError`. */
  async call<T>(spec: CallSpec): Promise<T> {
    return bodyOf<T>(await this.answer(spec));
  }

  /** Sends `spec` and answers what came back, after the credential's retry; the store hears of a credential gone or too old. */
  async answer(spec: CallSpec): Promise<HttpAnswer> {
    const { credential = true, ...request } = spec;
    const bearer = credential && this.keeper ? await credentialGone(this.keeper.tokenForRequest()) : null;
    let answer = await this.http.send({ ...request, bearer });
    if (bearer !== null && answer.status === 401 && codeOf(answer) === 'UNAUTHENTICATED') {
      // RFC 6750 §3.1 invalid_token: the access token was refused before its time (a clock apart, a key rotated); one refresh, one retry.
      const renewed = await credentialGone(this.keeper!.tokenAfterRejection(bearer));
      answer = await this.http.send({ ...request, bearer: renewed });
    }
    if (credential) this.observe(answer, bearer !== null);
    return answer;
  }

  /**
   * Takes the answer of a route that issues a credential (login, signup, second step, passkey
   * login, impersonation, re-authentication): a user body (session), a token body (jwt, native),
   * or the second step's challenge.
   */
  async signIn(answer: HttpAnswer): Promise<SignInOutcome> {
    const body = bodyOf<ClientUser | TokenBody | SecondFactorRequired>(answer);
    if (isSecondFactorRequired(body)) {
      this.store.twoStepRequired(body.methods);
      return { status: 'two-step-required', methods: body.methods };
    }
    if (this.keeper) {
      await this.keeper.adopt(body as TokenBody);
      const user = await this.call<ClientUser>({ method: 'GET', path: '/me' });
      this.store.signedIn(user);
      return { status: 'signed-in', user };
    }
    if (!isUser(body)) throw new SvcClientError('UNEXPECTED_RESPONSE', answer.status, 'The answer holds no user');
    this.store.signedIn(body);
    return { status: 'signed-in', user: body };
  }

  /** Forgets the credential here and signs the store out. */
  async signedOut(): Promise<void> {
    await this.keeper?.forget();
    this.store.signedOut();
  }

  /** Sends `spec` with the access token held now, expired or not, and no refresh (logout). */
  async answerWithoutRenewal(spec: Omit<CallSpec, 'credential'>): Promise<HttpAnswer> {
    return this.http.send({ ...spec, bearer: this.keeper?.currentToken() ?? null });
  }

  private observe(answer: HttpAnswer, presentedToken: boolean): void {
    const code = codeOf(answer);
    if (answer.status === 401 && code === 'UNAUTHENTICATED') {
      // The credential is gone (ended, expired, user deactivated): nothing held here can be used again.
      // Only a token that was presented and refused says so; a request sent before restore() presented none.
      if (presentedToken) void this.keeper?.forget();
      this.store.signedOut();
    } else if (code === 'REAUTH_REQUIRED') {
      this.store.reauthRequired(errorOf(answer).methods ?? []);
    }
  }
}

/**
 * A request whose credential could not be renewed fails as it would with a session gone: 401
 * `UNAUTHENTICATED`, whatever the credential (the refresh's own code stays `restore`'s business).
 */
async function credentialGone<T>(renewal: Promise<T>): Promise<T> {
  try {
    return await renewal;
  } catch (error) {
    if (error instanceof SvcClientError && error.code === 'REFRESH_TOKEN_INVALID') throw new SvcClientError('UNAUTHENTICATED', 401, 'Authentication required');
    throw error;
  }
}

function isSecondFactorRequired(body: unknown): body is SecondFactorRequired {
  return typeof body === 'object' && body !== null && (body as SecondFactorRequired).mfaRequired === true;
}

function isUser(body: unknown): body is ClientUser {
  return typeof body === 'object' && body !== null && typeof (body as ClientUser).id === 'string' && typeof (body as ClientUser).email === 'string';
}
