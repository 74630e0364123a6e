import { expect } from '@jest/globals';
import request from 'supertest';
import { AuthEvent, type AuthOptions, type AuthStrategy, type UserBody } from '#svc/auth';
import { cookiesOf, TEST_SECRET, type TestApp } from '../support/test-app.js';
import { eventually } from '../support/eventually.js';

/** The strategies that have passwords, so password recovery (issue 4). */
export const PASSWORD_STRATEGIES: AuthStrategy[] = ['session', 'jwt'];

/**
 * What `createTestApp` needs for `strategy`, with a fast bcrypt and the given password options, and
 * the module secret the database and redis limiters key accounts with (docs/reference/options.md).
 */
export function recoveryOptions(strategy: AuthStrategy, password: Partial<AuthOptions['password']> = {}): Partial<AuthOptions> {
  return {
    secret: TEST_SECRET,
    password: { bcryptCost: 10, ...password },
    ...(strategy === 'jwt' ? { jwt: { secretKey: TEST_SECRET } } : {}),
  };
}

/** A strategy's credentials after login, and what each of them gets now. */
export interface Credentials {
  /** Status of GET /auth/me with the credential; uses nothing up. */
  me(): Promise<number>;
  /** Status of every way the credential can be used (session: /me; jwt: /me, then refresh, which rotates it). */
  statuses(): Promise<number[]>;
}

/** Drives the auth endpoints of one test app the way a browser or API client would. */
export class RecoveryClient {
  constructor(
    private readonly t: TestApp,
    readonly strategy: AuthStrategy,
  ) {}

  signup(email: string, password: string) {
    return request(this.t.server).post('/auth/signup').send({ email, password });
  }

  /** Signs a user up and returns its user body (jwt signup answers with tokens: ask /me). */
  async createUser(email: string, password: string): Promise<UserBody> {
    const response = await this.signup(email, password);
    expect(response.status).toBe(201);
    if (this.strategy === 'session') return response.body as UserBody;
    const me = await request(this.t.server).get('/auth/me').set('Authorization', `Bearer ${response.body.access_token}`);
    expect(me.status).toBe(200);
    return me.body as UserBody;
  }

  login(email: string, password: string) {
    return request(this.t.server).post('/auth/login').send({ email, password });
  }

  forgot(email: string) {
    return request(this.t.server).post('/auth/forgot-password').send({ email });
  }

  reset(token: string, password: string) {
    return request(this.t.server).post('/auth/reset-password').send({ token, password });
  }

  async loginFor(email: string, password: string): Promise<Credentials> {
    const response = await this.login(email, password);
    expect(response.status).toBe(200);
    return this.credentialsOf(response);
  }

  /** The credentials a successful login or signup response handed out. */
  credentialsOf(response: request.Response): Credentials {
    const server = this.t.server;
    if (this.strategy === 'session') {
      const cookie = cookiesOf(response).svc_session.value;
      const me = async () => (await request(server).get('/auth/me').set('Cookie', `svc_session=${cookie}`)).status;
      return { me, statuses: async () => [await me()] };
    }
    const accessToken = response.body.access_token as string;
    const refresh = cookiesOf(response).svc_refresh.value;
    const me = async () => (await request(server).get('/auth/me').set('Authorization', `Bearer ${accessToken}`)).status;
    return {
      me,
      statuses: async () => [await me(), (await request(server).post('/auth/refresh').set('Cookie', `svc_refresh=${refresh}`)).status],
    };
  }

  /** Every reset token mailed to `email` so far (from `svc.password.reset_requested`). */
  tokensMailedTo(email: string): string[] {
    return this.resetEvents()
      .filter((event) => event.user.email === email)
      .map((event) => event.token);
  }

  resetEvents() {
    return this.t.events.payloadsOf(AuthEvent.PasswordResetRequested) as unknown as { user: { email: string }; token: string; expiresAt: Date }[];
  }

  /** Asks for a reset and returns the mailed token (the event fires after the 202). */
  async requestToken(email: string): Promise<string> {
    const before = this.tokensMailedTo(email).length;
    const response = await this.forgot(email);
    expect(response.status).toBe(202);
    await eventually(`a reset token for ${email}`, () => this.tokensMailedTo(email).length > before);
    return this.tokensMailedTo(email).at(-1)!;
  }
}

