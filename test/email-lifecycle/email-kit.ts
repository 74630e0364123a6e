import { expect } from '@jest/globals';
import type { LoggerService, Type } from '@nestjs/common';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { AuthEvent, type AuthEventName, type AuthEventPayloads, type AuthHooks, type AuthOptions, type EmailVerificationOptions, type UserBody } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import { listenOnLoopback } from '../support/listen.js';
import { cookiesOf, createTestApp, TEST_SECRET, type TestApp } from '../support/test-app.js';

export const PASSWORD = 'correct horse battery';
export const SECOND = 1000;
export type CredentialKind = 'session' | 'jwt';

/** Each of `engines` (`BEHAVIOUR_ENGINES`, or `availableEngines()` for engine-specific cases) with each credential. */
export function engineCredentialPairs(engines: readonly Engine[]): [Engine, CredentialKind][] {
  return engines.flatMap((engine) => (['session', 'jwt'] as const).map((credential): [Engine, CredentialKind] => [engine, credential]));
}

/** What a signed-in client holds, as headers, and the row that stands behind it (a session, or a refresh family). */
export interface Held {
  headers: Record<string, string>;
  /** The session id, or the refresh family id: what `email_tokens.requested_by` records. */
  id: string;
  /** The refresh cookie (jwt). */
  refresh?: string;
}

export interface EmailApp extends TestApp {
  url: string;
  credential: CredentialKind;
  signup(email: string, password?: string): Promise<request.Response>;
  login(email: string, password?: string): Promise<request.Response>;
  /** The credential a 200 login or a 201 signup handed out. */
  held(response: request.Response): Promise<Held>;
  /** Logs `email` in once more: another device. */
  device(email: string): Promise<Held>;
  /** Signs `email` up; its user body, credential and the mailed verification token. */
  account(email: string): Promise<{ user: UserBody; held: Held; token: string }>;
  me(held: Held): Promise<request.Response>;
  /** What each way to use the credential answers now (session: /me; jwt: /me, then refresh). */
  statuses(held: Held): Promise<number[]>;
  /** POST /verify-email; with `held`, from the browser that credential signs in (the first proof keeps it). */
  verify(token: unknown, held?: Held): Promise<request.Response>;
  sendVerification(held?: Held, body?: unknown): Promise<request.Response>;
  changeEmail(held: Held | undefined, body: Record<string, unknown>): Promise<request.Response>;
  confirm(token: unknown, held?: Held): Promise<request.Response>;
  /** The payloads of `name` delivered so far (after the responses' work has run). */
  delivered<N extends AuthEventName>(name: N): Promise<AuthEventPayloads[N][]>;
  /** The newest verification token mailed to `email`. */
  verificationTokenOf(email: string): Promise<string>;
  /** The newest change-of-email token mailed to `newEmail`. */
  changeTokenOf(newEmail: string): Promise<string>;
  /** The cancel token of the newest change-of-email notice mailed to `oldEmail`. */
  cancelTokenOf(oldEmail: string): Promise<string>;
  cancel(token: unknown, held?: Held): Promise<request.Response>;
  tokenRows(userId: string): Promise<Record<string, unknown>[]>;
  userRow(id: string): Promise<Record<string, unknown>>;
}

export interface EmailAppOptions {
  engine: Engine;
  credential: CredentialKind;
  emailVerification?: EmailVerificationOptions;
  hooks?: Type<AuthHooks>;
  overrides?: { provide: unknown; useClass: Type }[];
  options?: Partial<AuthOptions>;
  providers?: Type[];
  logger?: LoggerService;
}

/** A password application with `emailVerification`, listening on loopback (requests may overlap). */
export async function createEmailApp(options: EmailAppOptions): Promise<EmailApp> {
  const { credential } = options;
  const t = await createTestApp({
    engine: options.engine,
    strategy: credential,
    hooks: options.hooks,
    overrides: options.overrides,
    providers: options.providers,
    logger: options.logger,
    options: {
      secret: TEST_SECRET,
      password: { bcryptCost: 10 },
      ...(credential === 'jwt' ? { jwt: { secretKey: TEST_SECRET } } : {}),
      emailVerification: options.emailVerification ?? {},
      ...options.options,
    },
  });
  const url = await listenOnLoopback(t.server);
  const post = (path: string, held?: Held) => {
    const r = request(url).post(path);
    return held ? r.set(held.headers) : r;
  };
  const delivered = async <N extends AuthEventName>(name: N) => {
    await t.afterResponses();
    return t.events.payloadsOf(name) as unknown as AuthEventPayloads[N][];
  };
  const app: EmailApp = {
    ...t,
    url,
    credential,
    signup: (email, password = PASSWORD) => request(url).post('/auth/signup').send({ email, password }),
    login: (email, password = PASSWORD) => request(url).post('/auth/login').send({ email, password }),
    async held(response): Promise<Held> {
      if (credential === 'session') {
        const cookie = cookiesOf(response).svc_session.value;
        const [row] = await t.dataSource.query(`SELECT id FROM sessions WHERE token_hash = '${sha256(cookie)}'`);
        return { headers: { Cookie: `svc_session=${cookie}` }, id: row.id };
      }
      const access = response.body.access_token as string;
      const claims = JSON.parse(Buffer.from(access.split('.')[1], 'base64url').toString()) as { sid: string };
      return { headers: { Authorization: `Bearer ${access}` }, id: claims.sid, refresh: cookiesOf(response).svc_refresh.value };
    },
    async device(email) {
      const response = await app.login(email);
      expect(response.status).toBe(200);
      return app.held(response);
    },
    async account(email) {
      const response = await app.signup(email);
      expect(response.status).toBe(201);
      const held = await app.held(response);
      const me = await app.me(held);
      return { user: me.body as UserBody, held, token: await app.verificationTokenOf(email) };
    },
    me: (held) => request(url).get('/auth/me').set(held.headers),
    async statuses(held) {
      const me = (await app.me(held)).status;
      if (credential === 'session') return [me];
      return [me, (await request(url).post('/auth/refresh').set('Cookie', `svc_refresh=${held.refresh}`)).status];
    },
    verify: (token, held) => post('/auth/verify-email', held).send({ token }),
    sendVerification: (held, body) => (body === undefined ? post('/auth/send-verification', held) : post('/auth/send-verification', held).send(body as object)),
    changeEmail: (held, body) => post('/auth/change-email', held).send(body),
    confirm: (token, held) => post('/auth/confirm-email', held).send({ token }),
    cancel: (token, held) => post('/auth/cancel-email-change', held).send({ token }),
    delivered,
    async verificationTokenOf(email) {
      const mails = (await delivered(AuthEvent.EmailVerificationRequested)).filter((mail) => mail.user.email === email);
      if (mails.length === 0) throw new Error(`no verification mail to ${email}`);
      return mails.at(-1)!.token;
    },
    async changeTokenOf(newEmail) {
      const mails = (await delivered(AuthEvent.EmailChangeRequested)).filter((mail) => mail.newEmail === newEmail);
      if (mails.length === 0) throw new Error(`no confirmation mail to ${newEmail}`);
      return mails.at(-1)!.token;
    },
    async cancelTokenOf(oldEmail) {
      const mails = (await delivered(AuthEvent.EmailChangeNotice)).filter((mail) => mail.to === oldEmail && mail.reason === 'change_requested');
      if (mails.length === 0) throw new Error(`no change notice to ${oldEmail}`);
      return mails.at(-1)!.token!;
    },
    tokenRows: (userId) => t.dataSource.query(`SELECT * FROM email_tokens WHERE user_id = '${userId}' ORDER BY created_at, id`),
    async userRow(id) {
      const [row] = await t.dataSource.query(`SELECT * FROM users WHERE id = '${id}'`);
      return row;
    },
  };
  return app;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A timestamp column as a Date, whichever engine stored it (SQLite keeps text in UTC). */
export function dateOf(value: unknown): Date | null {
  if (value === null) return null;
  if (value instanceof Date) return value;
  const text = String(value);
  return new Date(/Z|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
}

export const TOKEN_INVALID = { statusCode: 400, error: 'Bad Request', message: 'Verification token is invalid or expired', code: 'VERIFICATION_TOKEN_INVALID' };
