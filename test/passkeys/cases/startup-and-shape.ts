import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DynamicModule } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import request from 'supertest';
import { AuthConfigError, AuthModule, type AuthOptions, type PasskeyOptions } from '#svc/auth';
import { addAuthToDocument } from '#svc/auth/openapi';
import { bootAuthModule, startAuthModule } from '../../support/auth-module-app.js';
import { TEST_SECRET } from '../../support/test-app.js';
import { createPasskeyApp, type PasskeyApp, PASSWORD } from '../passkey-kit.js';

const PASSKEY_ROUTES = ['/auth/passkeys', '/auth/passkeys/login', '/auth/passkeys/login/options', '/auth/passkeys/register', '/auth/passkeys/register/options', '/auth/passkeys/{id}'];
const NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'No such route', code: 'NOT_FOUND' };
const ANDROID_ORIGIN = `android:apk-key-hash:${'A'.repeat(43)}`;

const withPasskeys = (passkeys: unknown, baseUrl = 'https://app.test', secret: string | null = TEST_SECRET) =>
  AuthModule.forRoot({ strategy: 'session', baseUrl, secret: secret ?? undefined, password: { bcryptCost: 10, sendsResetMail: false }, passkeys } as AuthOptions & { strategy: 'session' });

describe('passkeys at startup (docs/guides/passkeys.md)', () => {
  const ipHost = 'must have a domain name as its host with passkeys: the host is the WebAuthn relying party id, which cannot be an IP address';
  it.each<[string, () => DynamicModule, AuthConfigError]>([
    ['an IPv4 address as the relying party id', () => withPasskeys({}, 'https://192.0.2.10'), new AuthConfigError('baseUrl', ipHost, 'https://192.0.2.10/')],
    ['a loopback address as the relying party id', () => withPasskeys({}, 'http://127.0.0.1:3000'), new AuthConfigError('baseUrl', ipHost, 'http://127.0.0.1:3000/')],
    ['an IPv6 address as the relying party id', () => withPasskeys({}, 'https://[2001:db8::1]'), new AuthConfigError('baseUrl', ipHost, 'https://[2001:db8::1]/')],
    [
      'a baseUrl that is no secure context',
      () => withPasskeys({}, 'http://app.test'),
      new AuthConfigError('baseUrl', 'must be an https URL with passkeys (plain http only on localhost): browsers offer WebAuthn to secure contexts only', 'http://app.test/'),
    ],
    ['no secret to sign the challenge cookie with', () => withPasskeys({}, 'https://app.test', null), new AuthConfigError('secret', 'is required with passkeys: the challenge cookie is signed with a key derived from it (or from jwt.secretKey or an OAuth secretKey)')],
    ['an extra origin that is not an origin', () => withPasskeys({ extraOrigins: ['https://m.app.test/login'] }), new AuthConfigError('passkeys.extraOrigins[0]', 'must be an origin (scheme://host[:port])', 'https://m.app.test/login')],
    ['an extra origin that is no URL at all', () => withPasskeys({ extraOrigins: ['m.app.test'] }), new AuthConfigError('passkeys.extraOrigins[0]', 'must be an absolute URL', 'm.app.test')],
    [
      'a plain http extra origin',
      () => withPasskeys({ extraOrigins: ['http://m.app.test'] }),
      new AuthConfigError('passkeys.extraOrigins[0]', 'must be an https origin (plain http only on localhost), or android:apk-key-hash:<base64url SHA-256>', 'http://m.app.test'),
    ],
    ['extraOrigins that is not a list', () => withPasskeys({ extraOrigins: 'https://m.app.test' }), new AuthConfigError('passkeys.extraOrigins', 'must be a list of origins', 'https://m.app.test')],
    ['a challenge lifetime under 30 seconds', () => withPasskeys({ challengeTtlSeconds: 29 }), new AuthConfigError('passkeys.challengeTtlSeconds', 'must be between 30 and 600', 29)],
    ['a challenge lifetime over 10 minutes', () => withPasskeys({ challengeTtlSeconds: 601 }), new AuthConfigError('passkeys.challengeTtlSeconds', 'must be between 30 and 600', 601)],
    ['userVerification discouraged', () => withPasskeys({ userVerification: 'discouraged' }), new AuthConfigError('passkeys.userVerification', 'must be one of required, preferred', 'discouraged')],
    ['an empty rpName', () => withPasskeys({ rpName: '' }), new AuthConfigError('passkeys.rpName', 'is required (a non-empty string)')],
    ['a section that is not an object', () => withPasskeys(true), new AuthConfigError('passkeys', 'must be an object', true)],
  ])('stops %s, naming the field', async (_case, auth, error) => {
    await expect(bootAuthModule(auth())).rejects.toThrow(error);
  });

  it('starts on localhost over plain http, with an Android app and a subdomain as extra origins', async () => {
    await bootAuthModule(withPasskeys({ extraOrigins: [ANDROID_ORIGIN, 'https://m.app.test'] }, 'http://localhost:3000'));
  });
});

describe('without the passkeys section', () => {
  let t: PasskeyApp;
  beforeAll(async () => {
    t = await createPasskeyApp({ engine: 'sqlite', credential: 'session', passkeys: null });
  });
  afterAll(() => t?.close());

  it('the passkey routes answer as no route does (404 NOT_FOUND), even signed in, and the document lists none of them', async () => {
    const browser = t.browser();
    await browser.signup('plain@x.io');
    for (const [method, path] of [
      ['post', '/auth/passkeys/register/options'],
      ['post', '/auth/passkeys/register'],
      ['post', '/auth/passkeys/login/options'],
      ['post', '/auth/passkeys/login'],
      ['get', '/auth/passkeys'],
      ['patch', '/auth/passkeys/00000000-0000-4000-8000-000000000000'],
      ['delete', '/auth/passkeys/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const answer = await browser.send(method, path, method === 'post' || method === 'patch' ? {} : undefined);
      expect([path, answer.status, answer.body]).toEqual([path, 404, NOT_FOUND]);
    }
    const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/auth/passkeys'))).toEqual([]);
  });
});

describe('with the section from an async factory', () => {
  it('serves the passkey routes', async () => {
    const app = await startAuthModule(
      AuthModule.forRootAsync({
        strategy: 'session',
        features: ['passkeys'],
        useFactory: async (): Promise<AuthOptions> => ({ baseUrl: 'https://app.test', secret: TEST_SECRET, password: { bcryptCost: 10, sendsResetMail: false }, passkeys: {} }),
      }),
    );
    try {
      const response = await request(app.getHttpServer()).post('/auth/passkeys/login/options');
      expect([response.status, response.body.rpId]).toEqual([200, 'app.test']);
    } finally {
      await app.close();
    }
  });
});

describe('the options of the section', () => {
  let t: PasskeyApp;
  const passkeys: PasskeyOptions = { rpName: 'Example App', extraOrigins: ['https://m.app.test', ANDROID_ORIGIN], challengeTtlSeconds: 60, userVerification: 'preferred' };
  beforeAll(async () => {
    t = await createPasskeyApp({ engine: 'sqlite', credential: 'jwt', passkeys });
  });
  afterAll(() => t?.close());

  it('rpName, the challenge lifetime (options timeout and cookie Max-Age) and userVerification reach the options', async () => {
    const browser = t.browser();
    await browser.signup('options@x.io');
    const options = await browser.send('post', '/auth/passkeys/register/options');
    expect(options.body).toMatchObject({ rp: { id: 'app.test', name: 'Example App' }, timeout: 60_000, authenticatorSelection: { userVerification: 'preferred' } });
    expect(options.headers['set-cookie'][0]).toContain('Max-Age=60');
    const login = await browser.send('post', '/auth/passkeys/login/options');
    expect(login.body).toMatchObject({ timeout: 60_000, userVerification: 'preferred' });
  });

  it('answers from each extra origin are accepted (a subdomain, an Android app); a tap without user verification passes under preferred', async () => {
    const browser = t.browser();
    await browser.signup('origins@x.io');
    expect((await browser.register({}, { origin: 'https://m.app.test', userVerified: false })).answer.status).toBe(201);
    browser.signOut();
    expect((await browser.signIn({ origin: ANDROID_ORIGIN, userVerified: false })).answer.status).toBe(200);
    browser.signOut();
    const { answer } = await browser.signIn({ origin: 'https://other.app.test' });
    expect([answer.status, answer.body.code]).toEqual([401, 'PASSKEY_INVALID']);
  });

  it('a challenge older than its lifetime is refused', async () => {
    const browser = t.browser();
    await browser.signup('ttl@x.io');
    await browser.register();
    browser.signOut();
    const options = await browser.send('post', '/auth/passkeys/login/options');
    t.clock.advance(61_000);
    const answer = await browser.send('post', '/auth/passkeys/login', { response: browser.authenticator.get(options.body) });
    expect([answer.status, answer.body.code]).toEqual([401, 'PASSKEY_INVALID']);
  });
});

describe('the OpenAPI document with the section', () => {
  let t: PasskeyApp;
  beforeAll(async () => {
    t = await createPasskeyApp({ engine: 'sqlite', credential: 'session' });
  });
  afterAll(() => t?.close());

  it('lists the routes with their bodies and answers', () => {
    const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
    type Operation = { requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>; security?: unknown };
    const operation = (path: string, method: string) => (document.paths[path] as Record<string, Operation>)[method];
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/auth/passkeys')).sort()).toEqual(PASSKEY_ROUTES);
    expect(operation('/auth/passkeys/login', 'post').responses['401'].description).toContain('PASSKEY_INVALID');
    expect(operation('/auth/passkeys/login', 'post').responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcUserBody' });
    expect(operation('/auth/passkeys/login', 'post').security).toBeUndefined();
    expect(operation('/auth/passkeys/register', 'post').security).toEqual([{ svcSession: [] }]);
    expect(operation('/auth/passkeys/{id}', 'delete').responses['409'].description).toContain('LAST_LOGIN_METHOD');
    expect(operation('/auth/passkeys/{id}', 'patch').responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcPasskey' });
    const schemas = document.components!.schemas as Record<string, { properties: Record<string, { type?: string; description?: string; maxLength?: number }> }>;
    expect(schemas.SvcPasskeyRegistrationRequest.properties.response).toEqual({ type: 'object', description: 'response must be a WebAuthn registration (a PublicKeyCredential as JSON)' });
    expect(schemas.SvcPasskeyNameRequest.properties.name).toMatchObject({ type: 'string', maxLength: 64 });
    expect(Object.keys(schemas.SvcPasskeys as object)).toContain('items');
  });
});

describe('rate limits of the passkey routes (docs/guides/rate-limiting.md)', () => {
  let t: PasskeyApp;
  beforeAll(async () => {
    t = await createPasskeyApp({ engine: 'sqlite', credential: 'session', options: { rateLimit: { max: 2, windowSeconds: 60, trustedIpHeader: 'x-forwarded-for' } } });
  });
  afterAll(() => t?.close());

  it('login options and login: per address', async () => {
    for (const path of ['/auth/passkeys/login/options', '/auth/passkeys/login']) {
      const body = path.endsWith('options') ? {} : { response: { id: 'AA', rawId: 'AA', type: 'public-key', response: { clientDataJSON: 'AA', authenticatorData: 'AA', signature: 'AA' } } };
      const send = (from: string) => t.browser().send('post', path, body, { 'X-Forwarded-For': from });
      for (const _ of [1, 2]) expect((await send('198.51.100.1')).status).not.toBe(429);
      const refused = await send('198.51.100.1');
      expect([refused.status, refused.body.code, refused.headers['retry-after']]).toEqual([429, 'RATE_LIMITED', '60']);
      expect((await send('198.51.100.2')).status).not.toBe(429);
      t.clock.advance(60_000);
    }
  });

  it('register options and register: per user too, so one account cannot spread its requests over addresses', async () => {
    const browser = t.browser();
    await browser.send('post', '/auth/signup', { email: 'limited@x.io', password: PASSWORD }, { 'X-Forwarded-For': '203.0.113.9' });
    t.clock.advance(60_000);
    for (const path of ['/auth/passkeys/register/options', '/auth/passkeys/register']) {
      const body = path.endsWith('options') ? {} : { response: { id: 'AA', rawId: 'AA', type: 'public-key', response: { clientDataJSON: 'AA', attestationObject: 'AA' } } };
      for (const n of [1, 2]) expect((await browser.send('post', path, body, { 'X-Forwarded-For': `203.0.113.${n}` })).status).not.toBe(429);
      const refused = await browser.send('post', path, body, { 'X-Forwarded-For': '203.0.113.3' });
      expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED']);
      t.clock.advance(60_000);
    }
  });
});
