import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AuthService } from '#svc/auth';
import { addAuthToDocument } from '#svc/auth/openapi';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createFreshApp, engineCredentialPairs, type FreshApp, PASSWORD, STALE_MS } from '../fresh-sign-in-kit.js';

describe.each(engineCredentialPairs(BEHAVIOUR_ENGINES))('fresh sign-in rules on %s, %s credential (docs/guides/account-security.md)', (engine, credential) => {
  describe('rate limit', () => {
    let app: FreshApp;
    beforeAll(async () => {
      app = await createFreshApp(engine, credential, { rateLimit: { max: 3, windowSeconds: 60 } });
    });
    afterAll(async () => {
      await app?.close();
    });

    it('POST /reauth is limited as a login: past the limit 429 RATE_LIMITED, even with the right password', async () => {
      const browser = await app.user(`limit-${engine}-${credential}@x.io`);
      for (let attempt = 0; attempt < 3; attempt++) expect((await app.reauth(browser, { password: 'wrong password' })).status).toBe(401);
      const limited = await app.reauth(browser, { password: PASSWORD });
      expect([limited.status, limited.body.code]).toEqual([429, 'RATE_LIMITED']);
      expect(limited.headers['retry-after']).toBeDefined();
    });
  });

  describe('impersonation', () => {
    let app: FreshApp;
    beforeAll(async () => {
      app = await createFreshApp(engine, credential, { authorization: { roles: { admin: ['users:*'], member: [] } }, admin: {} });
    });
    afterAll(async () => {
      await app?.close();
    });

    it('an impersonated credential meets IMPERSONATION_RESTRICTED before any question of freshness, and is never fresh on an application route', async () => {
      const admin = await app.user(`admin-${engine}-${credential}@x.io`);
      const me = await admin.me();
      await app.app.get(AuthService).grantRole(me.body.id, 'admin');
      const target = await app.user(`target-${engine}-${credential}@x.io`);
      const targetId = (await target.me()).body.id as string;
      const impersonation = await admin.send('post', `/auth/admin/users/${targetId}/impersonate`);
      expect(impersonation.status).toBe(200);
      const acting = app.browser();
      if (credential === 'session') acting.cookies.set('svc_session', /svc_session=([^;]+)/.exec(String(impersonation.headers['set-cookie']))![1]);
      else acting.bearer = impersonation.body.access_token;
      for (const [method, path] of [
        ['post', '/auth/passkeys/register/options'],
        ['post', '/auth/reauth'],
      ] as const) {
        const refused = await acting.send(method, path, path === '/auth/reauth' ? { password: PASSWORD } : undefined);
        expect([refused.status, refused.body.code]).toEqual([403, 'IMPERSONATION_RESTRICTED']);
      }
      const application = await acting.send('post', '/app/transfer');
      expect([application.status, application.body.code]).toEqual([403, 'REAUTH_REQUIRED']);
    });
  });

  describe('the OpenAPI document and the option', () => {
    let app: FreshApp;
    beforeAll(async () => {
      app = await createFreshApp(engine, credential, { reauth: { maxAgeSeconds: 300 } });
    });
    afterAll(async () => {
      await app?.close();
    });

    it('marks fresh routes with 403 and x-svc-fresh-auth (the option, or the route’s own age)', () => {
      const document = addAuthToDocument(SwaggerModule.createDocument(app.app, new DocumentBuilder().build()), app.app);
      const operation = (path: string, method: 'post' | 'delete') => document.paths[path][method] as unknown as Record<string, unknown> & { responses: Record<string, unknown> };
      for (const [path, method] of [
        ['/auth/passkeys/register/options', 'post'],
        ['/auth/passkeys/register', 'post'],
        ['/auth/passkeys/{id}', 'delete'],
        ['/app/transfer', 'post'],
      ] as const) {
        expect(operation(path, method)['x-svc-fresh-auth']).toBe(300);
        expect(Object.keys(operation(path, method).responses)).toContain('403');
      }
      expect(operation('/app/close-account', 'post')['x-svc-fresh-auth']).toBe(60);
      expect(operation('/auth/reauth', 'post')).not.toHaveProperty('x-svc-fresh-auth');
      expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/auth/reauth', '/auth/reauth/passkey/options', '/auth/reauth/passkey']));
    });

    it('reauth.maxAgeSeconds sets the window', async () => {
      const browser = await app.user(`option-${engine}-${credential}@x.io`);
      await app.advance(browser, 299_000);
      expect((await browser.send('post', '/app/transfer')).status).toBe(204);
      await app.advance(browser, 2000);
      expect((await browser.send('post', '/app/transfer')).status).toBe(403);
      expect(STALE_MS).toBeGreaterThan(300_000);
    });
  });

  it('stops startup on a reauth.maxAgeSeconds out of 1..86400, naming it', async () => {
    await expect(createFreshApp(engine, credential, { reauth: { maxAgeSeconds: 0 } })).rejects.toThrow(/^reauth\.maxAgeSeconds must be between 1 and 86400/);
    await expect(createFreshApp(engine, credential, { reauth: { maxAgeSeconds: 1.5 } })).rejects.toThrow(/^reauth\.maxAgeSeconds must be an integer/);
  });
});
