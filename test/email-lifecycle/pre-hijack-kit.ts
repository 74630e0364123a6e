import { expect } from '@jest/globals';
import { AuthEvent, type AuthEventName, type AuthEventPayloads, type AuthOptions, type EmailVerificationOptions } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import { BrowserAgent, type OidcProviderHarness, reserveLoopbackPort, startOidcProvider } from '../support/oauth/index.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../support/test-app.js';
import { fromBase32, stepOf, totpAt } from '../two-step/rfc6238.js';

export const PASSWORD = 'correct horse battery';
export const NEW_PASSWORD = 'another horse battery';
const CLIENT_ID = 'svc-pre-hijack';
const CLIENT_SECRET = 'Vb7nQ2kX9mR4tL8wZ1cH6jP3yF5dGs0a';

/** The demo's `AUTH_EMAIL_VERIFICATION`: no `emailVerification` section, `{}`, or `{ required: true }`. */
export type VerificationMode = 'off' | 'optional' | 'required';

const SECTION: Record<VerificationMode, EmailVerificationOptions | undefined> = { off: undefined, optional: {}, required: { required: true } };

/**
 * Every way into one account in one application (docs/decisions/0022-account-pre-hijacking.md): a password with
 * email verification in `mode`, an OpenID Connect provider `op` (a real oidc-provider on loopback),
 * passkeys and two-step login. The base URL is `http://localhost:<port>`: passkeys need a secure
 * context, and plain http is one on localhost.
 */
export interface PreHijackApp extends TestApp {
  url: string;
  credential: 'session' | 'jwt';
  mode: VerificationMode;
  op: OidcProviderHarness;
  /** A browser with its own cookies and authenticator. */
  browser(): Visitor;
  delivered<N extends AuthEventName>(name: N): Promise<AuthEventPayloads[N][]>;
  /** The newest password-reset token mailed to `email`. */
  resetTokenOf(email: string): Promise<string>;
}

export async function createPreHijackApp(options: { engine: Engine; credential: 'session' | 'jwt'; mode: VerificationMode }): Promise<PreHijackApp> {
  const port = await reserveLoopbackPort();
  const url = `http://localhost:${port}`;
  const op = await startOidcProvider({ clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${url}/auth/oidc/op/callback`] }] });
  const section = SECTION[options.mode];
  const t = await createTestApp({
    engine: options.engine,
    options: {
      credential: options.credential,
      baseUrl: url,
      secret: TEST_SECRET,
      password: { bcryptCost: 10 },
      ...(section ? { emailVerification: section } : {}),
      mfa: { issuer: 'svc tests' },
      passkeys: {},
      oidc: { providers: [{ name: 'op', issuer: op.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }] },
    } as Partial<AuthOptions>,
  });
  // Every interface: `localhost` may resolve to ::1 or to 127.0.0.1.
  await new Promise<void>((resolve, reject) => t.server.once('error', reject).listen(port, resolve));
  const delivered = async <N extends AuthEventName>(name: N) => {
    await t.afterResponses();
    return t.events.payloadsOf(name) as unknown as AuthEventPayloads[N][];
  };
  const app: PreHijackApp = {
    ...t,
    url,
    credential: options.credential,
    mode: options.mode,
    op,
    browser: () => new Visitor(app),
    delivered,
    async resetTokenOf(email) {
      const mails = (await delivered(AuthEvent.PasswordResetRequested)).filter((mail) => mail.user.email === email);
      if (mails.length === 0) throw new Error(`no reset mail to ${email}`);
      return mails.at(-1)!.token;
    },
    close: async () => {
      await t.close();
      await op.close();
    },
  };
  return app;
}

/** What the application answered: the status and the JSON body (or null). */
export interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  setCookies: string[];
}

/** One person's browser on the application's page: cookies, the bearer token a jwt page keeps, an authenticator. */
export class Visitor {
  readonly agent = new BrowserAgent();
  readonly authenticator = new SoftwareAuthenticator();
  bearer?: string;

  constructor(private readonly app: { url: string; credential: 'session' | 'jwt'; clock: { now(): Date } }) {}

  async send(method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { origin: this.app.url };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    const response = await this.agent.request(`${this.app.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = response.headers.get('content-type')?.includes('application/json') ? ((await response.json()) as Record<string, unknown>) : null;
    if (typeof json?.access_token === 'string') this.bearer = json.access_token;
    return { status: response.status, body: json, setCookies: response.headers.getSetCookie() };
  }

  signup(email: string, password = PASSWORD): Promise<Answer> {
    return this.send('POST', '/auth/signup', { email, password });
  }

  login(email: string, password = PASSWORD): Promise<Answer> {
    return this.send('POST', '/auth/login', { email, password });
  }

  me(): Promise<Answer> {
    return this.send('GET', '/auth/me');
  }

  /** What each way to use the credential answers now (session: /me; jwt: /me, then refresh). */
  async statuses(): Promise<number[]> {
    const me = (await this.me()).status;
    if (this.app.credential === 'session') return [me];
    return [me, (await this.send('POST', '/auth/refresh')).status];
  }

  /** Starts a link at `op` (POST /oidc/op/link) and, when it is granted, walks the provider's forms as `login` to the callback's answer. */
  async linkProvider(login: string): Promise<number> {
    const start = await this.send('POST', '/auth/oidc/op/link', {});
    if (start.status !== 200) return start.status;
    return (await this.agent.signIn(start.body!.url as string, { app: this.app.url, login })).response.status;
  }

  /** "Sign in with op" as `login`: the callback's status; for jwt the page then trades the refresh cookie for its access token. */
  async signInWithProvider(login: string): Promise<Answer> {
    const { response } = await this.agent.signIn(`${this.app.url}/auth/oidc/op/login`, { app: this.app.url, login });
    const body = response.headers.get('content-type')?.includes('application/json') ? ((await response.json()) as Record<string, unknown>) : null;
    if (response.status === 302 && this.app.credential === 'jwt') await this.send('POST', '/auth/refresh');
    return { status: response.status, body, setCookies: response.headers.getSetCookie() };
  }

  /** Creation options, then (when they were given) the authenticator's answer: the status of the refusal, or of the registration. */
  async registerPasskey(): Promise<number> {
    const options = await this.send('POST', '/auth/passkeys/register/options', {});
    if (options.status !== 200) return options.status;
    const response = this.authenticator.create(options.body as never, { origin: this.app.url });
    return (await this.send('POST', '/auth/passkeys/register', { response })).status;
  }

  /** A passkey login with the authenticator's newest credential for this relying party. */
  async signInWithPasskey(): Promise<Answer> {
    const options = await this.send('POST', '/auth/passkeys/login/options', {});
    expect(options.status).toBe(200);
    return this.send('POST', '/auth/passkeys/login', { response: this.authenticator.get(options.body as never, { origin: this.app.url }) });
  }

  /** Setup, then enable with a code of the secret it gave: the status of the refusal, or of the enable; the secret, if one was given. */
  async turnOnTotp(password = PASSWORD): Promise<{ status: number; secret?: Buffer }> {
    const setup = await this.send('POST', '/auth/mfa/totp/setup', { password });
    if (setup.status !== 200) return { status: setup.status };
    const secret = fromBase32(setup.body!.secret as string);
    const enable = await this.send('POST', '/auth/mfa/totp/enable', { code: totpAt(secret, stepOf(this.app.clock.now())) });
    return { status: enable.status, secret };
  }

  /** Forgets the credential and every cookie (not the authenticator): a signed-out page. */
  signOut(): void {
    this.agent.jar.clear();
    this.bearer = undefined;
  }
}
