import type { ClientClock } from './client-clock.js';
import { bodyOf, codeOf, errorOf, type HttpChannel } from './http-channel.js';
import { SvcClientError } from './svc-client-error.js';
import type { TokenBody } from './wire-types.js';

/**
 * Where a native client keeps its refresh token (Keychain, Keystore, expo-secure-store...). Browsers
 * need none: their refresh token is an HttpOnly cookie the page never sees.
 */
export interface RefreshTokenStorage {
  get(): Promise<string | null | undefined> | string | null | undefined;
  set(refreshToken: string): Promise<void> | void;
  delete(): Promise<void> | void;
}

/** A token this close to its expiry is treated as expired: it could expire on the way (clock skew, transit). */
const EXPIRY_MARGIN_MS = 5_000;
/** Renewal starts this long before expiry at most, a quarter of the token's lifetime at least. */
const RENEW_BEFORE_MS = 60_000;

interface AccessToken {
  token: string;
  expiresAt: number;
}

/**
 * The jwt credential of a client: the access token in memory only (OWASP ASVS 5.0 V3.3: never in
 * web storage), renewed shortly before it expires, and exactly one refresh in flight however many
 * requests wait for it: refresh tokens are single use (RFC 9700 §4.14.2), so two concurrent
 * refreshes would spend the same token twice and the server would revoke the family.
 */
export class TokenKeeper {
  private access: AccessToken | null = null;
  private inFlight: Promise<string> | null = null;
  private timer: unknown = null;

  constructor(
    private readonly http: HttpChannel,
    private readonly clock: ClientClock,
    /** Native clients: the refresh token's storage; browsers: null (the refresh cookie). */
    private readonly storage: RefreshTokenStorage | null,
    /** Called once per refresh the server refused: the credential is gone. */
    private readonly onRefreshRefused: () => void,
  ) {}

  /** Takes the credential of a login, signup, second step or refresh answer. */
  async adopt(body: TokenBody): Promise<void> {
    if (typeof body?.access_token !== 'string' || typeof body.expires_in !== 'number') {
      throw new SvcClientError('UNEXPECTED_RESPONSE', 200, 'The answer holds no access token');
    }
    if (this.storage) {
      // A native answer without its refresh token is refused rather than leaving a session that cannot be renewed.
      if (typeof body.refresh_token !== 'string') throw new SvcClientError('UNEXPECTED_RESPONSE', 200, 'The answer holds no refresh token');
      await this.storage.set(body.refresh_token);
    }
    const lifetimeMs = body.expires_in * 1000;
    this.access = { token: body.access_token, expiresAt: this.clock.now() + lifetimeMs };
    this.scheduleRenewal(lifetimeMs);
  }

  /** The access token to present: the current one, a renewed one if it has expired, or null when there is none. */
  async tokenForRequest(): Promise<string | null> {
    if (this.inFlight) return this.inFlight;
    if (this.access === null) return null;
    if (this.clock.now() < this.access.expiresAt - EXPIRY_MARGIN_MS) return this.access.token;
    return this.refresh();
  }

  /** The access token held, expired or not; no refresh. */
  currentToken(): string | null {
    return this.access?.token ?? null;
  }

  /** After the server refused `rejected` (401): the token that replaced it meanwhile, or a new one. */
  async tokenAfterRejection(rejected: string): Promise<string> {
    if (this.inFlight) return this.inFlight;
    if (this.access !== null && this.access.token !== rejected) return this.access.token;
    return this.refresh();
  }

  /** One refresh, shared by every caller until it settles. */
  refresh(): Promise<string> {
    this.inFlight ??= this.runRefresh().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** The stored refresh token (native), for logout. */
  async refreshToken(): Promise<string | null> {
    return (await this.storage?.get()) ?? null;
  }

  /** Drops the credential held here: the access token, the renewal and (native) the stored refresh token. */
  async forget(): Promise<void> {
    this.access = null;
    this.cancelRenewal();
    await this.storage?.delete();
  }

  dispose(): void {
    this.cancelRenewal();
  }

  private async runRefresh(): Promise<string> {
    let body: unknown;
    if (this.storage) {
      const refreshToken = await this.storage.get();
      if (!refreshToken) return this.refused(new SvcClientError('UNAUTHENTICATED', 401, 'Not signed in'));
      body = { refresh_token: refreshToken };
    }
    const answer = await this.http.send({ method: 'POST', path: '/refresh', body });
    // Refused for good (consumed, revoked, expired, user inactive): the credential is gone. Anything else (429, 5xx) may pass.
    if (answer.status === 401 || answer.status === 403 || codeOf(answer) === 'REFRESH_TOKEN_INVALID') return this.refused(errorOf(answer));
    await this.adopt(bodyOf<TokenBody>(answer));
    return this.access!.token;
  }

  private async refused(error: SvcClientError): Promise<never> {
    await this.forget();
    this.onRefreshRefused();
    throw error;
  }

  private scheduleRenewal(lifetimeMs: number): void {
    this.cancelRenewal();
    const delay = Math.max(0, lifetimeMs - Math.min(RENEW_BEFORE_MS, lifetimeMs / 4));
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      // A refused renewal signs out through onRefreshRefused; a transient failure leaves the next request to try again.
      this.refresh().catch(() => undefined);
    }, delay);
  }

  private cancelRenewal(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
