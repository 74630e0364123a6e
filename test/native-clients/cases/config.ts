import request from 'supertest';
import { AuthConfigError, AuthModule, type AuthOptions } from '#svc/auth';
import { startAuthModule } from '../../support/auth-module-app.js';
import { BASE_URL, TEST_SECRET } from '../../support/test-app.js';
import { createNativeApp, NATIVE, nativeTokensOf, PASSWORD } from '../native-clients-kit.js';

// docs/reference/options.md, nativeClients: read at startup, like every option.
describe('the nativeClients option at startup', () => {
  it('stops startup unless it is true or false', async () => {
    await expect(createNativeApp({ engine: 'sqlite', credential: 'session', native: false, options: { nativeClients: 'yes' } as never })).rejects.toThrow(new AuthConfigError('nativeClients', 'must be true or false', 'yes'));
  });

  it('a session module derives its access-token key from the module secret when it has no jwt section', async () => {
    const t = await createNativeApp({ engine: 'sqlite', credential: 'session', options: { jwt: undefined, secret: TEST_SECRET } });
    try {
      await t.nativeAccount('derived@x.io');
      nativeTokensOf(await t.login('derived@x.io', NATIVE));
    } finally {
      await t.close();
    }
  });

  it('a jwt section under the session credential takes effect with native clients (its lifetimes)', async () => {
    const t = await createNativeApp({ engine: 'sqlite', credential: 'session', options: { jwt: { secretKey: TEST_SECRET, accessTokenExpireMinutes: 5 } } });
    try {
      const response = await t.signup('lifetime@x.io', NATIVE);
      expect(response.body.expires_in).toBe(300);
    } finally {
      await t.close();
    }
  });

  it('a jwt section under the session credential without native clients still stops startup', async () => {
    await expect(createNativeApp({ engine: 'sqlite', credential: 'session', native: false, options: { jwt: { secretKey: TEST_SECRET } } })).rejects.toThrow(/^jwt is given but the credential is session/);
  });
});

describe('nativeClients through forRootAsync', () => {
  it('is a graph-shaping extra: given beside the factory, a session module serves native clients', async () => {
    const app = await startAuthModule(
      AuthModule.forRootAsync({ credential: 'session', nativeClients: true, useFactory: (): AuthOptions => ({ baseUrl: BASE_URL, secret: TEST_SECRET, password: { bcryptCost: 10, sendsResetMail: false } }) }),
    );
    try {
      const server = app.getHttpServer();
      const signup = await request(server).post('/auth/signup').set(NATIVE).send({ email: 'async@x.io', password: PASSWORD });
      const tokens = nativeTokensOf(signup);
      expect((await request(server).post('/auth/refresh').set(NATIVE).send({ refresh_token: tokens.refresh })).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
