import request from 'supertest';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createJwtApp, type JwtApp, tokensOf } from '../jwt-kit.js';

describe.each(BEHAVIOUR_ENGINES)('jwt and password reset on %s', (engine) => {
  let t: JwtApp;
  beforeAll(async () => {
    t = await createJwtApp({ engine });
  });
  afterAll(() => t.close());

  it('reset-password revokes every refresh family of the user, and with them the live access tokens (docs/decisions/0014-password-recovery.md)', async () => {
    const laptop = await t.account('reset@x.io');
    const phone = tokensOf(await t.login('reset@x.io'));
    const bystander = await t.account('bystander@x.io');

    expect((await request(t.url).post('/auth/forgot-password').send({ email: 'reset@x.io' })).status).toBe(202);
    const [mailed] = await t.events.waitFor(AuthEvent.PasswordResetRequested);
    const reset = await request(t.url).post('/auth/reset-password').send({ token: mailed.token, password: 'a brand new password' });
    expect(reset.status).toBe(204);

    for (const device of [laptop, phone]) {
      expect((await t.me(device.access)).status).toBe(401);
      expect((await t.refresh(device.refresh)).status).toBe(401);
    }
    expect((await t.me(bystander.access)).status).toBe(200);
    expect((await t.login('reset@x.io', 'a brand new password')).status).toBe(200);
  });
});
