import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DynamicModule } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import request from 'supertest';
import { AuthConfigError, AuthModule, type AuthOptions } from '#svc/auth';
import { addAuthToDocument } from '#svc/auth/openapi';
import { bootAuthModule, startAuthModule } from '../../support/auth-module-app.js';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createTestApp, TEST_SECRET, TestClock, type TestApp } from '../../support/test-app.js';
import { createTwoStepApp, lastingDatabase, PASSWORD, STEP_MS, type TwoStepApp } from '../two-step-kit.js';

const BASE_URL = 'http://app.test';
const OTHER_SECRET = 'Zt7wN2pK9xR4vL6mQ1sY8bH3cJ5fG0dA';
const oidc = { providers: [{ name: 'op', issuer: 'https://op.example', clientId: 'client', clientSecret: 'GOCSPX-q8Vz3kR1xN7pL2mW9tY4bH6c' }] };
const MFA_ROUTES = ['/auth/mfa/recovery-codes', '/auth/mfa/totp/disable', '/auth/mfa/totp/enable', '/auth/mfa/totp/setup', '/auth/mfa/verify'];
const password = { bcryptCost: 10, sendsResetMail: false };

const withMfa = (mfa: unknown, extra: Partial<AuthOptions> = {}) =>
  AuthModule.forRoot({ strategy: 'session', baseUrl: BASE_URL, secret: TEST_SECRET, password, mfa, ...extra } as AuthOptions & { strategy: 'session' });

describe('the mfa section at startup (docs/reference/options.md)', () => {
  it.each<[string, () => DynamicModule, AuthConfigError]>([
    [
      'without the password method',
      () => AuthModule.forRoot({ credential: 'session', secret: TEST_SECRET, baseUrl: BASE_URL, oidc, mfa: { issuer: 'x' } }),
      new AuthConfigError('mfa', "is given but the password login method is not on: setup and disable confirm with the password, so it would not take effect (add 'password' to the login extra, or leave the section out)"),
    ],
    [
      'without a secret to derive its keys from',
      () => AuthModule.forRoot({ strategy: 'session', baseUrl: BASE_URL, password, mfa: { issuer: 'x' } } as never),
      new AuthConfigError('secret', 'is required with the mfa section: the stored TOTP secrets are encrypted, and the challenge signed, with keys derived from it (or from jwt.secretKey or an OAuth secretKey)'),
    ],
    [
      'challengeProviderLogins without a provider method',
      () => withMfa({ issuer: 'x', challengeProviderLogins: true }),
      new AuthConfigError('mfa.challengeProviderLogins', 'is true but no provider login method (oauth2, oidc) is on: it would not take effect'),
    ],
    ['challengeProviderLogins that is not a boolean', () => withMfa({ issuer: 'x', challengeProviderLogins: 'no' }), new AuthConfigError('mfa.challengeProviderLogins', 'must be true or false', 'no')],
    ['no issuer', () => withMfa({}), new AuthConfigError('mfa.issuer', 'is required (a non-empty string)')],
    ['a challenge under a minute', () => withMfa({ issuer: 'x', challengeTtlSeconds: 59 }), new AuthConfigError('mfa.challengeTtlSeconds', 'must be between 60 and 900', 59)],
    ['a challenge over 15 minutes', () => withMfa({ issuer: 'x', challengeTtlSeconds: 901 }), new AuthConfigError('mfa.challengeTtlSeconds', 'must be between 60 and 900', 901)],
    ['a weak previous secret', () => withMfa({ issuer: 'x', previousSecrets: ['changeme'] }), new AuthConfigError('mfa.previousSecrets[0]', 'must be at least 32 characters')],
    ['a section that is not an object', () => withMfa(true), new AuthConfigError('mfa', 'must be an object', true)],
  ])('stops %s, naming the option', async (_case, auth, error) => {
    await expect(bootAuthModule(auth())).rejects.toThrow(error);
  });

  it('with the jwt shorthand and no module secret, its keys come from jwt.secretKey', async () => {
    await bootAuthModule(AuthModule.forRoot({ strategy: 'jwt', baseUrl: BASE_URL, password, jwt: { secretKey: TEST_SECRET }, mfa: { issuer: 'x' } } as AuthOptions & { strategy: 'jwt' }));
  });

  it('from an async factory: the routes are served', async () => {
    const app = await startAuthModule(AuthModule.forRootAsync({ strategy: 'session', features: ['mfa'], useFactory: async (): Promise<AuthOptions> => ({ baseUrl: BASE_URL, secret: TEST_SECRET, password, mfa: { issuer: 'x' } }) }));
    try {
      const response = await request(app.getHttpServer()).post('/auth/mfa/verify').send({ code: '123456' });
      expect([response.status, response.body.code]).toEqual([401, 'MFA_CHALLENGE_INVALID']);
    } finally {
      await app.close();
    }
  });
});

describe.each(BEHAVIOUR_ENGINES)('TOTP without a limiter on %s (docs/guides/two-step.md, Limits)', (engine) => {
  const WARNING = 'mfa is configured without a rateLimit section';

  it('the mfa section without a rateLimit section logs one warning at startup, to svc, naming both options', async () => {
    const logger = new CapturingLogger();
    const t = await createTwoStepApp({ engine, credential: 'session', logger });
    try {
      const lines = logger.matching('warn', WARNING);
      expect(lines).toHaveLength(1);
      expect(lines[0].text).toContain('/mfa/verify');
      expect(lines[0].text.split('\n').at(-1)).toBe('svc');
    } finally {
      await t.close();
    }
  });

  it('with a rateLimit section, or without the mfa section, it says nothing of the kind', async () => {
    for (const start of [
      (logger: CapturingLogger) => createTwoStepApp({ engine, credential: 'jwt', logger, options: { rateLimit: { max: 1000 } } }),
      (logger: CapturingLogger) => createTestApp({ engine, strategy: 'session', logger }),
    ]) {
      const logger = new CapturingLogger();
      const t = await start(logger);
      try {
        expect(logger.lines.filter((line) => line.text.includes('rateLimit'))).toEqual([]);
      } finally {
        await t.close();
      }
    }
  });
});

describe('without the mfa section', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: 'sqlite', strategy: 'session' });
  });
  afterAll(() => t?.close());

  it('the two-step routes answer 404 NOT_FOUND, the user body has no mfa, and the document lists none of them', async () => {
    for (const path of MFA_ROUTES) {
      const response = await request(t.server).post(path).send({ code: '123456' });
      expect([path, response.status, response.body]).toEqual([path, 404, { statusCode: 404, error: 'Not Found', message: 'No such route', code: 'NOT_FOUND' }]);
    }
    const signup = await request(t.server).post('/auth/signup').send({ email: 'plain@x.io', password: PASSWORD });
    expect(signup.body).toEqual({ id: expect.any(String), email: 'plain@x.io', displayName: null, plan: 'free' });
    const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/auth/mfa'))).toEqual([]);
    expect(Object.keys((document.components!.schemas!.SvcUserBody as { properties: object }).properties)).not.toContain('mfa');
  });
});

describe('the OpenAPI document with the section', () => {
  let t: TwoStepApp;
  beforeAll(async () => {
    t = await createTwoStepApp({ engine: 'sqlite', credential: 'jwt' });
  });
  afterAll(() => t?.close());

  it('lists the five routes with their answers; login may answer the challenge; the user body has mfa', () => {
    const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
    type Operation = { responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>; security?: unknown; requestBody?: { content: Record<string, { schema: unknown }> } };
    const operation = (path: string) => (document.paths[path] as Record<string, Operation>).post;
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/auth/mfa')).sort()).toEqual(MFA_ROUTES);
    expect(operation('/auth/mfa/totp/setup').responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcMfaSetup' });
    expect(operation('/auth/mfa/totp/setup').security).toEqual([{ svcBearer: [] }]);
    expect(operation('/auth/mfa/totp/enable').responses['400'].description).toContain('MFA_CODE_INVALID');
    expect(operation('/auth/mfa/totp/enable').responses['403'].description).toContain('HOOK_ABORTED');
    expect(operation('/auth/mfa/totp/disable').responses['204']).toBeDefined();
    expect(operation('/auth/mfa/recovery-codes').responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcRecoveryCodes' });
    expect(operation('/auth/mfa/verify').responses['401'].description).toBe('MFA_CODE_INVALID, MFA_CHALLENGE_INVALID');
    expect(operation('/auth/mfa/verify').responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcTokenBody' });
    expect(operation('/auth/mfa/verify').security).toBeUndefined();
    expect(operation('/auth/mfa/verify').requestBody!.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcMfaVerifyRequest' });
    expect(operation('/auth/login').responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcLoginOrChallenge' });
    expect((document.components!.schemas!.SvcUserBody as { properties: Record<string, unknown> }).properties.mfa).toMatchObject({ type: 'object', required: ['totp'] });
  });
});

describe.each(BEHAVIOUR_ENGINES)('a rotation of the module secret on %s (docs/guides/two-step.md)', (engine) => {
  it('a secret sealed under the previous secret still signs in, and is sealed again under the new one at that use', async () => {
    const database = await lastingDatabase(engine);
    const clock = new TestClock();
    const before = await createTwoStepApp({ engine, credential: 'session', clock, database: database.forEach, options: { secret: OTHER_SECRET } });
    const user = await before.twoStepUser('rotated@x.io');
    const [sealed] = await before.rows('mfa_totp', user.userId);
    await before.close();

    const after = await createTwoStepApp({ engine, credential: 'session', clock, database: database.forEach, mfa: { previousSecrets: [OTHER_SECRET] } });
    try {
      const verified = await after.verify(await after.challenge(user.email), { code: after.codeOf(user.secret) });
      expect(verified.status).toBe(200);
      const [resealed] = await after.rows('mfa_totp', user.userId);
      expect(resealed.key_id).not.toBe(sealed.key_id);
      expect(resealed.secret_ciphertext).not.toBe(sealed.secret_ciphertext);
      // Sealed under the current key now: it opens without the previous secret.
      clock.advance(STEP_MS);
      expect((await after.verify(await after.challenge(user.email), { code: after.codeOf(user.secret) })).status).toBe(200);
    } finally {
      await after.close();
      await database.drop();
    }
  });

  it('without the previous secret, the stored secret does not open: the login fails closed (500, no credential)', async () => {
    const database = await lastingDatabase(engine);
    const clock = new TestClock();
    const before = await createTwoStepApp({ engine, credential: 'session', clock, database: database.forEach, options: { secret: OTHER_SECRET } });
    const user = await before.twoStepUser('lost-key@x.io');
    await before.close();
    const after = await createTwoStepApp({ engine, credential: 'session', clock, database: database.forEach });
    try {
      const response = await after.verify(await after.challenge(user.email), { code: after.codeOf(user.secret) });
      expect(response.status).toBe(500);
      expect(response.body.code).toBe('INTERNAL_ERROR');
      expect(response.headers['set-cookie']).toBeUndefined();
    } finally {
      await after.close();
      await database.drop();
    }
  });
});
