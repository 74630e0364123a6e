import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type DynamicModule, Injectable } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import request from 'supertest';
import { AuthConfigError, AuthEvent, AuthModule, type AuthOptions, OnAuthEvent } from '#svc/auth';
import { addAuthToDocument } from '#svc/auth/openapi';
import { bootAuthModule, startAuthModule } from '../../support/auth-module-app.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';
import { createEmailApp, type EmailApp, PASSWORD } from '../email-kit.js';

const BASE_URL = 'http://app.test';
const oidc = { providers: [{ name: 'op', issuer: 'https://op.example', clientId: 'client', clientSecret: 'GOCSPX-q8Vz3kR1xN7pL2mW9tY4bH6c' }] };
const EMAIL_ROUTES = ['/auth/cancel-email-change', '/auth/change-email', '/auth/confirm-email', '/auth/send-verification', '/auth/verify-email'];

@Injectable()
class VerificationMailer {
  @OnAuthEvent(AuthEvent.EmailVerificationRequested)
  send(): void {}
}

@Injectable()
class ChangeMailer {
  @OnAuthEvent(AuthEvent.EmailChangeRequested)
  confirm(): void {}

  @OnAuthEvent(AuthEvent.EmailChangeNotice)
  notify(): void {}
}

const withPassword = (emailVerification: unknown) =>
  AuthModule.forRoot({ strategy: 'session', baseUrl: BASE_URL, password: { bcryptCost: 10, sendsResetMail: false }, emailVerification } as AuthOptions & { strategy: 'session' });

describe('emailVerification at startup (docs/reference/options.md)', () => {
  it.each<[string, () => DynamicModule, AuthConfigError]>([
    [
      'without the password method (forRoot)',
      () => AuthModule.forRoot({ credential: 'session', secret: TEST_SECRET, baseUrl: BASE_URL, oidc, emailVerification: {} }),
      new AuthConfigError('emailVerification', "is given but the password login method is not on: it would not take effect (add 'password' to the login extra, or leave the section out)"),
    ],
    [
      'without the password method (forRootAsync)',
      () => AuthModule.forRootAsync({ login: ['oidc'], useFactory: (): AuthOptions => ({ baseUrl: BASE_URL, secret: TEST_SECRET, oidc, emailVerification: { required: true } }) }),
      new AuthConfigError('emailVerification', "is given but the password login method is not on: it would not take effect (add 'password' to the login extra, or leave the section out)"),
    ],
    ['a lifetime under 5 minutes', () => withPassword({ tokenTtlSeconds: 299, sendsMail: false }), new AuthConfigError('emailVerification.tokenTtlSeconds', 'must be between 300 and 604800', 299)],
    ['a lifetime over a week', () => withPassword({ tokenTtlSeconds: 604_801, sendsMail: false }), new AuthConfigError('emailVerification.tokenTtlSeconds', 'must be between 300 and 604800', 604_801)],
    ['required that is not a boolean', () => withPassword({ required: 'yes', sendsMail: false }), new AuthConfigError('emailVerification.required', 'must be true or false', 'yes')],
    ...['verify-email', '//evil.test/verify', '/verify?x=1', '/verify#top', '/ver ify', '/\\evil'].map((path): [string, () => DynamicModule, AuthConfigError] => [
      `a verifyPath of ${JSON.stringify(path)}`,
      () => withPassword({ verifyPath: path, sendsMail: false }),
      new AuthConfigError('emailVerification.verifyPath', 'must be a path starting with a single "/", without query, fragment, spaces or backslashes', path),
    ]),
  ])('stops %s, naming the option', async (_case, auth, error) => {
    await expect(bootAuthModule(auth())).rejects.toThrow(error);
  });

  it('nothing silently dropped: each of the three messages needs an observer while sendsMail is true, and the error names the event', async () => {
    const refusal = (event: string, key: string, what: string) =>
      new AuthConfigError(
        'emailVerification.sendsMail',
        `is true, but nothing observes ${event}: add an observer that mails ${what} (@OnAuthEvent(AuthEvent.${key})), or set emailVerification.sendsMail: false if the application sends no such mail`,
      );
    await expect(bootAuthModule(withPassword({}))).rejects.toThrow(refusal('svc.email.verification_requested', 'EmailVerificationRequested', 'the verification link'));
    await expect(bootAuthModule(withPassword({}), [VerificationMailer])).rejects.toThrow(refusal('svc.email.change_requested', 'EmailChangeRequested', 'the confirmation link to the new address'));
    await bootAuthModule(withPassword({}), [VerificationMailer, ChangeMailer]);
    await bootAuthModule(withPassword({ sendsMail: false }));
  });
});

describe('without the emailVerification section', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: 'sqlite', strategy: 'session' });
  });
  afterAll(() => t?.close());

  it('the email routes answer as no route does (404 NOT_FOUND), the user body has no emailVerified, and the document lists none of them', async () => {
    for (const path of EMAIL_ROUTES) {
      const response = await request(t.server).post(path).send({ token: 'x' });
      expect([path, response.status, response.body]).toEqual([path, 404, { statusCode: 404, error: 'Not Found', message: 'No such route', code: 'NOT_FOUND' }]);
    }
    const signup = await request(t.server).post('/auth/signup').send({ email: 'plain@x.io', password: PASSWORD });
    expect(signup.body).toEqual({ id: expect.any(String), email: 'plain@x.io', displayName: null, plan: 'free' });
    const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
    expect(Object.keys(document.paths).filter((path) => EMAIL_ROUTES.includes(path))).toEqual([]);
    expect(Object.keys((document.components!.schemas!.SvcUserBody as { properties: object }).properties)).not.toContain('emailVerified');
  });
});

describe('with the section, from an async factory too', () => {
  it('serves the email routes', async () => {
    const app = await startAuthModule(
      AuthModule.forRootAsync({
        strategy: 'session',
        useFactory: async (): Promise<AuthOptions> => ({ baseUrl: BASE_URL, password: { bcryptCost: 10, sendsResetMail: false }, emailVerification: { sendsMail: false } }),
      }),
    );
    try {
      const response = await request(app.getHttpServer()).post('/auth/verify-email').send({ token: 'A'.repeat(43) });
      expect([response.status, response.body.code]).toEqual([400, 'VERIFICATION_TOKEN_INVALID']);
    } finally {
      await app.close();
    }
  });
});

describe('the OpenAPI document with the section', () => {
  let t: EmailApp;
  beforeAll(async () => {
    t = await createEmailApp({ engine: 'sqlite', credential: 'session', emailVerification: { required: true } });
  });
  afterAll(() => t?.close());

  it('lists the five routes with their answers; signup gives the user body only and login may answer 403 EMAIL_NOT_VERIFIED', () => {
    const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
    const operation = (path: string, method = 'post') => (document.paths[path] as Record<string, { responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>; security?: unknown }>)[method];
    expect(Object.keys(document.paths).filter((path) => EMAIL_ROUTES.includes(path)).sort()).toEqual(EMAIL_ROUTES);
    expect(Object.keys(operation('/auth/verify-email').responses)).toEqual(expect.arrayContaining(['204', '400']));
    expect(operation('/auth/verify-email').responses['400'].description).toContain('VERIFICATION_TOKEN_INVALID');
    expect(operation('/auth/send-verification').responses['409'].description).toContain('EMAIL_ALREADY_VERIFIED');
    expect(operation('/auth/send-verification').security).toEqual([{ svcSession: [] }]);
    expect(operation('/auth/change-email').responses['401'].description).toContain('INVALID_CREDENTIALS');
    expect(operation('/auth/confirm-email').responses['409'].description).toContain('EMAIL_ALREADY_REGISTERED');
    expect(operation('/auth/confirm-email').security).toBeUndefined();
    expect(operation('/auth/cancel-email-change').responses['400'].description).toContain('VERIFICATION_TOKEN_INVALID');
    expect(operation('/auth/cancel-email-change').security).toBeUndefined();
    expect(operation('/auth/login').responses['403'].description).toContain('EMAIL_NOT_VERIFIED');
    expect(operation('/auth/signup').responses['201'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcUserBody' });
    expect((document.components!.schemas!.SvcUserBody as { properties: Record<string, unknown>; required: string[] }).properties.emailVerified).toMatchObject({ type: 'boolean' });
  });
});

describe('rate limits of the email routes (docs/guides/rate-limiting.md)', () => {
  let t: EmailApp;
  beforeAll(async () => {
    t = await createEmailApp({ engine: 'sqlite', credential: 'session', options: { rateLimit: { max: 2, windowSeconds: 60, trustedIpHeader: 'x-forwarded-for' } } });
  });
  afterAll(() => t?.close());

  const send = (path: string, from: string, body: object, headers: Record<string, string> = {}) => request(t.url).post(path).set('X-Forwarded-For', from).set(headers).send(body);

  it('verify-email, confirm-email and cancel-email-change: per address', async () => {
    for (const path of ['/auth/verify-email', '/auth/confirm-email', '/auth/cancel-email-change']) {
      for (const _ of [1, 2]) expect((await send(path, '198.51.100.1', { token: 'A'.repeat(43) })).status).toBe(400);
      const refused = await send(path, '198.51.100.1', { token: 'A'.repeat(43) });
      expect([refused.status, refused.body.code, refused.headers['retry-after']]).toEqual([429, 'RATE_LIMITED', '60']);
      expect((await send(path, '198.51.100.2', { token: 'A'.repeat(43) })).status).toBe(400);
      t.clock.advance(60_000);
    }
  });

  it('send-verification and change-email: per user too, so one account cannot spread its requests over addresses', async () => {
    const { held } = await t.account('limited@x.io');
    for (const [path, body, status] of [
      ['/auth/send-verification', {}, 202],
      ['/auth/change-email', { newEmail: 'elsewhere@x.io', password: PASSWORD }, 202],
    ] as const) {
      for (const n of [1, 2]) expect((await send(path, `203.0.113.${n}`, body, held.headers)).status).toBe(status);
      const refused = await send(path, '203.0.113.3', body, held.headers);
      expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED']);
      t.clock.advance(60_000);
    }
  });
});
