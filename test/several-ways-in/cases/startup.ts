import { type DynamicModule } from '@nestjs/common';
import request from 'supertest';
import { AuthConfigError, AuthModule, type AuthOptions } from '#svc/auth';
import { startAuthModule } from '../../support/auth-module-app.js';
import { TEST_SECRET } from '../../support/test-app.js';

const BASE_URL = 'http://app.test';
const oidc = { providers: [{ name: 'op', issuer: 'https://op.example', clientId: 'client', clientSecret: 'GOCSPX-q8Vz3kR1xN7pL2mW9tY4bH6c' }] };

describe('a section that would not take effect stops the application, through forRoot and forRootAsync', () => {
  it.each<[string, () => DynamicModule, AuthConfigError]>([
    [
      'an oidc section beside the session shorthand',
      () => AuthModule.forRoot({ strategy: 'session', baseUrl: BASE_URL, oidc: { secretKey: TEST_SECRET, ...oidc } }),
      new AuthConfigError('oidc', "is given but strategy 'session' has no oidc login: leave the section out"),
    ],
    [
      'an oidc section from a factory when the login extra leaves oidc out',
      () => AuthModule.forRootAsync({ login: ['password'], useFactory: (): AuthOptions => ({ baseUrl: BASE_URL, secret: TEST_SECRET, oidc }) }),
      new AuthConfigError('oidc', "is given but the oidc login method is not on: add 'oidc' to the login extra, or leave the section out"),
    ],
    [
      'a jwt section with the session credential',
      () => AuthModule.forRoot({ credential: 'session', baseUrl: BASE_URL, jwt: { secretKey: TEST_SECRET } }),
      new AuthConfigError('jwt', 'is given but the credential is session: it would not take effect'),
    ],
    [
      'a session section with the jwt credential',
      () => AuthModule.forRoot({ credential: 'jwt', secret: TEST_SECRET, baseUrl: BASE_URL, session: { maxPerUser: 3 } }),
      new AuthConfigError('session', 'is given but the credential is jwt: it would not take effect'),
    ],
    [
      'the credential named twice',
      () => AuthModule.forRoot({ credential: 'session', secret: TEST_SECRET, baseUrl: BASE_URL, oidc: { ...oidc, strategy: 'session' } }),
      new AuthConfigError('oidc.strategy', "belongs to the strategy shorthand: name the credential once, with AuthModule's credential option"),
    ],
  ])('%s', async (_case, auth, error) => {
    await expect(startAuthModule(auth())).rejects.toThrow(error);
  });
});

describe('the routes are exactly those of the configured credential and login methods', () => {
  it('password and oidc with the jwt credential, from a factory: both methods, /refresh, the linking routes', async () => {
    const app = await startAuthModule(
      AuthModule.forRootAsync({ login: ['password', 'oidc'], credential: 'jwt', useFactory: (): AuthOptions => ({ baseUrl: BASE_URL, secret: TEST_SECRET, password: { bcryptCost: 10, sendsResetMail: false }, oidc }) }),
    );
    try {
      const server = app.getHttpServer();
      expect((await request(server).post('/auth/signup').send({ email: 'both@x.io', password: 'correct horse' })).status).toBe(201);
      expect((await request(server).get('/auth/oidc/op/login')).status).not.toBe(404);
      expect((await request(server).post('/auth/refresh')).body.code).toBe('REFRESH_TOKEN_INVALID');
      expect((await request(server).get('/auth/accounts')).body.code).toBe('UNAUTHENTICATED');
      expect((await request(server).get('/auth/oauth2/op/login')).body.code).toBe('NOT_FOUND');
    } finally {
      await app.close();
    }
  });

  it('oidc alone with the session credential: no password route, no /refresh', async () => {
    const app = await startAuthModule(AuthModule.forRoot({ credential: 'session', baseUrl: BASE_URL, secret: TEST_SECRET, oidc }));
    try {
      const server = app.getHttpServer();
      for (const path of ['/auth/signup', '/auth/login', '/auth/forgot-password', '/auth/reset-password', '/auth/change-password', '/auth/refresh']) {
        expect((await request(server).post(path).send({})).body.code).toBe('NOT_FOUND');
      }
      expect((await request(server).get('/auth/me')).body.code).toBe('UNAUTHENTICATED');
      expect((await request(server).post('/auth/logout')).status).toBe(204);
    } finally {
      await app.close();
    }
  });
});
