import { AuthEvent, type AuthEventName, type AuthEventPayloads, type AuthOptions, AuthService } from '#svc/auth';
import { createSvcClient, type SvcClient, type WebAuthnCeremonies } from '#svc/auth/client';
import type { Engine } from '../support/engines.js';
import { listenOnLoopback } from '../support/listen.js';
import { BrowserAgent } from '../support/oauth/index.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';
import { createTestApp, TEST_SECRET, type TestApp, type TestAppOptions } from '../support/test-app.js';
import { codeOfSecretAt } from '../two-step/codes-of-secret.js';

export type CredentialKind = 'session' | 'jwt';
export const PASSWORD = 'correct horse battery';
/** Passkeys need a secure context on a domain name: the relying party is app.test, the page's origin https://app.test. */
export const PAGE_ORIGIN = 'https://app.test';

/** The suite's policy: administrators and members. */
export const POLICY = { roles: { admin: ['users:*'], member: [] }, defaultRoles: ['member'] };

/** One person at the application: the client under test, over the cookies of a browser (a fetch that keeps them). */
export interface Person {
  client: SvcClient;
  agent: BrowserAgent;
  authenticator: SoftwareAuthenticator;
}

export interface ClientApp extends TestApp {
  /** Where the application listens (the client's `baseUrl`). */
  url: string;
  credential: CredentialKind;
  /** A new browser with the client on it; with `agent`, a new page in that browser (a reload: its cookies, nothing of the page's memory). */
  person(agent?: BrowserAgent): Person;
  /** A new person signed up with `email`, the email verified through the client (and, with `roles`, holding them), signed in. */
  signedUp(email: string, roles?: string[]): Promise<Person>;
  /** The payloads of `name` delivered so far (after the responses' work has run). */
  delivered<N extends AuthEventName>(name: N): Promise<AuthEventPayloads[N][]>;
  /** The token of the newest verification link mailed to `email`. */
  verificationToken(email: string): Promise<string>;
  /** The current authenticator code of a base32 TOTP secret, at the application's clock. */
  totp(secret: string): string;
}

/**
 * The library's application with every section the client has methods for (password, email
 * verification, two-step login, passkeys, roles and administration) on `engine` with `credential`,
 * listening on loopback, so that the client reaches it over real HTTP with the platform's fetch.
 */
export async function createClientApp(
  engine: Engine,
  credential: CredentialKind,
  options: Partial<AuthOptions> = {},
  application: Pick<TestAppOptions, 'controllers' | 'providers'> = {},
): Promise<ClientApp> {
  const t = await createTestApp({
    engine,
    ...application,
    options: {
      credential,
      baseUrl: PAGE_ORIGIN,
      secret: TEST_SECRET,
      password: { bcryptCost: 10 },
      emailVerification: {},
      mfa: { issuer: 'svc client suite' },
      passkeys: {},
      authorization: POLICY,
      admin: {},
      ...options,
    } as Partial<AuthOptions>,
  });
  const url = await listenOnLoopback(t.server);
  const clients: SvcClient[] = [];
  const person = (agent = new BrowserAgent()): Person => {
    const authenticator = new SoftwareAuthenticator();
    const webauthn: WebAuthnCeremonies = {
      startRegistration: async ({ optionsJSON }) => authenticator.create(optionsJSON as never, { origin: PAGE_ORIGIN }) as never,
      startAuthentication: async ({ optionsJSON }) => authenticator.get(optionsJSON as never, { origin: PAGE_ORIGIN }) as never,
    };
    const client = createSvcClient({ baseUrl: url, credential, fetch: (input, init) => agent.request(input, init), webauthn });
    clients.push(client);
    return { client, agent, authenticator };
  };
  const app: ClientApp = {
    ...t,
    url,
    credential,
    person,
    async signedUp(email, roles = []) {
      const someone = person();
      await someone.client.signup({ email, password: PASSWORD });
      const user = someone.client.getSnapshot();
      if (user.status !== 'signed-in') throw new Error(`${email} is not signed in after signup: ${user.status}`);
      await someone.client.email.verify(await app.verificationToken(email));
      for (const role of roles) await t.app.get(AuthService).grantRole(user.user.id, role);
      await someone.client.me();
      return someone;
    },
    async delivered(name) {
      await t.afterResponses();
      return t.events.payloadsOf(name) as never;
    },
    async verificationToken(email) {
      const mails = (await app.delivered(AuthEvent.EmailVerificationRequested)).filter((mail) => mail.user.email === email);
      if (mails.length === 0) throw new Error(`no verification link for ${email}`);
      return mails.at(-1)!.token;
    },
    totp: (secret) => codeOfSecretAt(secret, t.clock.now()),
    close: async () => {
      // Their renewal timers (jwt) would outlive the suite.
      for (const client of clients) client.dispose();
      await t.close();
    },
  };
  return app;
}
