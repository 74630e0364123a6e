import { expect } from '@jest/globals';
import type { LoggerService } from '@nestjs/common';
import type { AuthOptions, SecurityNoticeEvent } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import { listenOnLoopback } from '../support/listen.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../support/test-app.js';
import { fromBase32, stepOf, totpAt } from '../two-step/rfc6238.js';
import { Browser, PASSKEY_BASE_URL } from '../passkeys/passkey-kit.js';

export { Browser } from '../passkeys/passkey-kit.js';
export const PASSWORD = 'correct horse battery';
export const NEW_PASSWORD = 'a brand new passphrase';
export const STEP_MS = 30_000;
/** The user agent every browser of the suite sends, so a notice's `userAgent` can be checked. */
export const USER_AGENT = 'svc-notices-test/1.0';
export type CredentialKind = 'session' | 'jwt';

/** The suite's policy: one administrator role (holding `users:roles`, for LAST_ADMIN) and members. */
export const POLICY = { roles: { admin: ['users:*'], member: [] } };

/** Each of `engines` with each credential. */
export function engineCredentialPairs(engines: readonly Engine[]): [Engine, CredentialKind][] {
  return engines.flatMap((engine) => (['session', 'jwt'] as const).map((credential): [Engine, CredentialKind] => [engine, credential]));
}

/**
 * Every table of the library's with a `user_id`, and `users` itself: what a deleted account must
 * leave nothing of (docs/decisions/0002-schema.md).
 */
export const USER_TABLES = ['users', 'sessions', 'refresh_families', 'refresh_tokens', 'password_reset_tokens', 'email_tokens', 'oauth_accounts', 'mfa_totp', 'mfa_recovery_codes', 'passkeys', 'user_roles'] as const;

export interface AccountApp extends TestApp {
  url: string;
  credential: CredentialKind;
  /** A browser with the suite's user agent (cookies, origin, and the bearer token of a jwt page). */
  browser(): Browser;
  /** A browser signed up as `email` (and thus signed in). */
  signedUp(email: string): Promise<{ browser: Browser; userId: string }>;
  /** Turns two-step login on for the browser's user: the secret. */
  enableTotp(browser: Browser): Promise<Buffer>;
  codeOf(secret: Buffer): string;
  /** The security notices delivered so far, once the work after the responses has run. */
  notices(): Promise<SecurityNoticeEvent[]>;
  /** The number of rows of `userId` in each of `USER_TABLES`. */
  rowCounts(userId: string): Promise<Record<(typeof USER_TABLES)[number], number>>;
}

/** A password application with two-step login, passkeys, the policy and the admin section, on loopback. */
export async function createAccountApp(engine: Engine, credential: CredentialKind, options: Partial<AuthOptions> = {}, logger?: LoggerService): Promise<AccountApp> {
  const t = await createTestApp({
    engine,
    logger,
    options: {
      credential,
      baseUrl: PASSKEY_BASE_URL,
      secret: TEST_SECRET,
      password: { bcryptCost: 10 },
      mfa: { issuer: 'svc tests' },
      passkeys: {},
      authorization: POLICY,
      admin: {},
      ...options,
    } as Partial<AuthOptions>,
  });
  const url = await listenOnLoopback(t.server);
  const app: AccountApp = {
    ...t,
    url,
    credential,
    browser: () => {
      const browser = new Browser(app);
      const send = browser.send.bind(browser);
      browser.send = (method, path, body, headers = {}) => send(method, path, body, { 'User-Agent': USER_AGENT, ...headers });
      return browser;
    },
    async signedUp(email) {
      const browser = app.browser();
      await browser.signup(email);
      const me = await browser.me();
      expect(me.status).toBe(200);
      return { browser, userId: me.body.id as string };
    },
    async enableTotp(browser) {
      const setup = await browser.send('post', '/auth/mfa/totp/setup', { password: PASSWORD });
      expect(setup.status).toBe(200);
      const secret = fromBase32(setup.body.secret);
      expect((await browser.send('post', '/auth/mfa/totp/enable', { code: app.codeOf(secret) })).status).toBe(200);
      // The enabling code's step is spent: the next code comes from the next step.
      t.clock.advance(STEP_MS);
      return secret;
    },
    codeOf: (secret) => totpAt(secret, stepOf(t.clock.now())),
    async notices() {
      await t.afterResponses();
      return t.events.payloadsOf('svc.security.notice');
    },
    async rowCounts(userId) {
      const counts = {} as Record<(typeof USER_TABLES)[number], number>;
      for (const table of USER_TABLES) {
        const column = table === 'users' ? 'id' : 'user_id';
        const [row] = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = '${userId}'`);
        counts[table] = Number(row.n);
      }
      return counts;
    },
  };
  return app;
}

/** A notice's `ip` as the loopback client's address reads (IPv4, or IPv4-mapped IPv6). */
export const LOOPBACK = expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$|^::1$/);

/** The user body as events carry it: /me's, without the permissions only `request.user` and /me show. */
export function eventBodyOf(me: Record<string, unknown>): Record<string, unknown> {
  const { permissions: _onlyOnMe, ...body } = me;
  return body;
}
