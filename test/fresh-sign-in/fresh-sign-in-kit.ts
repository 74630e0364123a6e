import { expect } from '@jest/globals';
import { Controller, Get, HttpCode, HttpStatus, Post, Req, UseGuards } from '@nestjs/common';
import type request from 'supertest';
import { type AuthOptions, CurrentUserGuard, RequireFreshAuth } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import { listenOnLoopback } from '../support/listen.js';
import { claimsOf, createTestApp, TEST_SECRET, type TestApp, TestClock } from '../support/test-app.js';
import { Browser, PASSKEY_BASE_URL } from '../passkeys/passkey-kit.js';
import { fromBase32, stepOf, totpAt } from '../two-step/rfc6238.js';

export const PASSWORD = 'correct horse battery';
export const MINUTE_MS = 60_000;
/** Past the default `reauth.maxAgeSeconds` (900). */
export const STALE_MS = 16 * MINUTE_MS;
export type CredentialKind = 'session' | 'jwt';
export { Browser };

/** Each of `engines` with each credential. */
export function engineCredentialPairs(engines: readonly Engine[]): [Engine, CredentialKind][] {
  return engines.flatMap((engine) => (['session', 'jwt'] as const).map((credential): [Engine, CredentialKind] => [engine, credential]));
}

/** An application's own routes that need a fresh sign-in: the option's age, and a stricter one of 60 seconds. */
@Controller('app')
export class SensitiveRoutes {
  @Post('transfer')
  @RequireFreshAuth()
  @HttpCode(HttpStatus.NO_CONTENT)
  transfer(): void {}

  @Post('close-account')
  @RequireFreshAuth(60)
  @HttpCode(HttpStatus.NO_CONTENT)
  closeAccount(): void {}

  /** What `request.user` says of the sign-in, and whether a body of it would show it. */
  @Get('sign-in')
  @UseGuards(CurrentUserGuard)
  signIn(@Req() request: { user: { authTime: Date | null } }): { authTime: string | null; keys: string[] } {
    return { authTime: request.user.authTime?.toISOString() ?? null, keys: Object.keys(request.user) };
  }
}

export interface FreshApp extends TestApp {
  url: string;
  credential: CredentialKind;
  browser(): Browser;
  /** A signed-up browser (signup signs in: fresh now). */
  user(email: string): Promise<Browser>;
  /** Turns two-step login on for the browser's user; the secret, to compute codes with. */
  enableTotp(browser: Browser): Promise<Buffer>;
  /** Moves the clock on; a jwt page then refreshes its access token (a refresh moves no sign-in), as a page does when it expires. */
  advance(browser: Browser, ms: number): Promise<void>;
  /** The code of `secret` at the clock's step plus `offset`. */
  codeOf(secret: Buffer, offset?: number): string;
  /** POST /auth/reauth with the password (or `body`). */
  reauth(browser: Browser, body?: Record<string, unknown>): Promise<request.Response>;
  /** POST /auth/reauth/passkey/options, the authenticator's answer, POST /auth/reauth/passkey. */
  reauthWithPasskey(browser: Browser, authenticatorOf?: Browser): Promise<request.Response>;
}

/** A password application with two-step login and passkeys, `credential`, and the application's `SensitiveRoutes`. */
export async function createFreshApp(engine: Engine, credential: CredentialKind, options: Partial<AuthOptions> = {}): Promise<FreshApp> {
  const t = await createTestApp({
    engine,
    strategy: credential,
    clock: new TestClock(),
    controllers: [SensitiveRoutes],
    options: {
      baseUrl: PASSKEY_BASE_URL,
      secret: TEST_SECRET,
      password: { bcryptCost: 10 },
      ...(credential === 'jwt' ? { jwt: { secretKey: TEST_SECRET } } : {}),
      mfa: { issuer: 'svc tests' },
      passkeys: {},
      ...options,
    },
  });
  const url = await listenOnLoopback(t.server);
  const app: FreshApp = {
    ...t,
    url,
    credential,
    browser: () => new Browser({ url, credential }),
    async user(email) {
      const browser = app.browser();
      await browser.signup(email);
      return browser;
    },
    async enableTotp(browser) {
      const setup = await browser.send('post', '/auth/mfa/totp/setup', { password: PASSWORD });
      expect(setup.status).toBe(200);
      const secret = fromBase32(setup.body.secret);
      expect((await browser.send('post', '/auth/mfa/totp/enable', { code: app.codeOf(secret) })).status).toBe(200);
      // The enabling code's step is spent.
      t.clock.advance(30_000);
      return secret;
    },
    async advance(browser, ms) {
      t.clock.advance(ms);
      if (credential === 'jwt') expect((await browser.send('post', '/auth/refresh')).status).toBe(200);
    },
    codeOf: (secret, offset = 0) => totpAt(secret, stepOf(t.clock.now()) + offset),
    reauth: (browser, body = { password: PASSWORD }) => browser.send('post', '/auth/reauth', body),
    async reauthWithPasskey(browser, authenticatorOf = browser) {
      const options = await browser.send('post', '/auth/reauth/passkey/options');
      expect(options.status).toBe(200);
      return browser.send('post', '/auth/reauth/passkey', { response: authenticatorOf.authenticator.get(options.body) });
    },
  };
  return app;
}

/** The 403 body of a stale credential, with the methods it may re-authenticate with. */
export function reauthRequired(methods: string[]) {
  return { statusCode: 403, error: 'Forbidden', message: 'Confirm it is you: sign in again', code: 'REAUTH_REQUIRED', methods };
}

export { claimsOf };
