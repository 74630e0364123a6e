import { expect } from '@jest/globals';
import request from 'supertest';
import type { AuthEventName, AuthEventPayloads, AuthOptions, PasskeyOptions } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import { listenOnLoopback } from '../support/listen.js';
import { type CeremonyChoices, SoftwareAuthenticator } from '../support/software-authenticator.js';
import { cookiesOf, createTestApp, TEST_SECRET, type TestApp } from '../support/test-app.js';

export const PASSWORD = 'correct horse battery';
/** Passkeys need a secure context: https, on a domain name (the relying party id). */
export const PASSKEY_BASE_URL = 'https://app.test';
export const RP_ID = 'app.test';
export type CredentialKind = 'session' | 'jwt';

/** Each of `engines` (`BEHAVIOUR_ENGINES`, or `availableEngines()` for engine-specific cases) with each credential. */
export function engineCredentialPairs(engines: readonly Engine[]): [Engine, CredentialKind][] {
  return engines.flatMap((engine) => (['session', 'jwt'] as const).map((credential): [Engine, CredentialKind] => [engine, credential]));
}

export interface PasskeyAppOptions {
  engine: Engine;
  credential: CredentialKind;
  /** The `passkeys` section; null: none. @default {} */
  passkeys?: PasskeyOptions | null;
  options?: Partial<AuthOptions>;
  /** Another instance's database (not dropped by this one), instead of a fresh one. */
  sharedWith?: PasskeyApp;
}

export interface PasskeyApp extends TestApp {
  url: string;
  credential: CredentialKind;
  /** A browser of the application: its cookies, and (jwt) the access token a page keeps in memory. */
  browser(authenticator?: SoftwareAuthenticator): Browser;
  rows(table: 'passkeys' | 'sessions' | 'refresh_tokens' | 'users' | 'passkey_used_challenges'): Promise<Record<string, unknown>[]>;
  /** The payloads of `name` delivered so far (after the responses' work has run). */
  delivered<N extends AuthEventName>(name: N): Promise<AuthEventPayloads[N][]>;
}

/** A password application on `engine` with `credential` and the `passkeys` section, listening on loopback. */
export async function createPasskeyApp(options: PasskeyAppOptions): Promise<PasskeyApp> {
  const t = await createTestApp({
    engine: options.engine,
    strategy: options.credential,
    database: options.sharedWith && { options: options.sharedWith.dataSource.options, drop: async () => undefined },
    options: {
      baseUrl: PASSKEY_BASE_URL,
      secret: TEST_SECRET,
      password: { bcryptCost: 10 },
      ...(options.credential === 'jwt' ? { jwt: { secretKey: TEST_SECRET } } : {}),
      ...(options.passkeys === null ? {} : { passkeys: options.passkeys ?? {} }),
      ...options.options,
    },
  });
  const url = await listenOnLoopback(t.server);
  const app: PasskeyApp = {
    ...t,
    url,
    credential: options.credential,
    browser: (authenticator) => new Browser(app, authenticator),
    rows: (table) => t.dataSource.query(`SELECT * FROM ${table}`),
    async delivered(name) {
      await t.afterResponses();
      return t.events.payloadsOf(name) as never;
    },
  };
  return app;
}

/** One ceremony: the options the server sent, the authenticator's answer, and what the server made of it. */
export interface Ceremony {
  options: request.Response;
  response: Record<string, unknown>;
  answer: request.Response;
}

/** A browser on the application's page: its cookie jar, its origin on every request, and the bearer token of a jwt page. */
export class Browser {
  bearer?: string;

  constructor(
    private readonly app: { url: string; credential: CredentialKind },
    readonly authenticator = new SoftwareAuthenticator(),
    readonly cookies = new Map<string, string>(),
  ) {}

  /** The same browser (its cookies and authenticator) sent to another instance by the load balancer. */
  at(app: { url: string; credential: CredentialKind }): Browser {
    return new Browser(app, this.authenticator, this.cookies);
  }

  async send(method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<request.Response> {
    let call = request(this.app.url)[method](path).set('Origin', PASSKEY_BASE_URL);
    if (this.cookies.size > 0) call = call.set('Cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    if (this.bearer) call = call.set('Authorization', `Bearer ${this.bearer}`);
    call = call.set(headers);
    const response = await (body === undefined ? call : call.send(body as object));
    for (const [name, cookie] of Object.entries(cookiesOf(response))) {
      if (cookie.value === '' || cookie.attributes.some((attribute) => /^Expires=Thu, 01 Jan 1970/i.test(attribute))) this.cookies.delete(name);
      else this.cookies.set(name, cookie.value);
    }
    if (typeof response.body?.access_token === 'string') this.bearer = response.body.access_token;
    return response;
  }

  async signup(email: string): Promise<void> {
    expect((await this.send('post', '/auth/signup', { email, password: PASSWORD })).status).toBe(201);
  }

  me(): Promise<request.Response> {
    return this.send('get', '/auth/me');
  }

  /** Asks for creation options, lets the authenticator answer, and posts its answer. */
  async register(body: { name?: string } = {}, choices: CeremonyChoices = {}): Promise<Ceremony> {
    const options = await this.send('post', '/auth/passkeys/register/options');
    expect(options.status).toBe(200);
    const response = this.authenticator.create(options.body, choices);
    return { options, response, answer: await this.send('post', '/auth/passkeys/register', { response, ...body }) };
  }

  /** Asks for request options, lets the authenticator answer, and posts its answer. */
  async signIn(choices: CeremonyChoices = {}): Promise<Ceremony> {
    const options = await this.send('post', '/auth/passkeys/login/options');
    expect(options.status).toBe(200);
    const response = this.authenticator.get(options.body, choices);
    return { options, response, answer: await this.send('post', '/auth/passkeys/login', { response }) };
  }

  /** Forgets the credential and every cookie (not the authenticator): a signed-out page. */
  signOut(): void {
    this.cookies.clear();
    this.bearer = undefined;
  }
}

/** The credential cookies a response set (the session cookie, or the refresh cookie). */
export function credentialCookiesOf(response: request.Response): string[] {
  return Object.keys(cookiesOf(response)).filter((name) => name === 'svc_session' || name === 'svc_refresh');
}

export const PASSKEY_INVALID = { statusCode: 401, error: 'Unauthorized', message: 'Passkey could not be verified', code: 'PASSKEY_INVALID' };
