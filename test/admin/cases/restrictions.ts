import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import request from 'supertest';
import { CurrentUserGuard, RestrictedWhileImpersonating } from '#svc/auth';
import { credentialCases } from '../../support/credential-cases.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { TestClock } from '../../support/test-app.js';
import { type AdminApp, createAdminApp, type Held, PASSWORD } from '../admin-kit.js';

// docs/guides/administration.md, "Impersonation": every route that changes how the account is
// reached refuses an impersonated credential, the application's own marked routes too; the
// user's own credential is served as before. Behaviour: SQLite, with each credential.
const cases = credentialCases(BEHAVIOUR_ENGINES);

@Controller('app')
class PayoutRoutes {
  @Post('payout-account')
  @HttpCode(204)
  @UseGuards(CurrentUserGuard)
  @RestrictedWhileImpersonating()
  changePayoutAccount(): void {}
}

describe.each(cases)('routes restricted while impersonating on %s, %s credential', (engine, credential) => {
  let t: AdminApp;
  let acting: Held;
  let alice: Held;

  beforeAll(async () => {
    t = await createAdminApp(engine, credential, { emailVerification: {}, mfa: { issuer: 'svc' } }, new TestClock(), [PayoutRoutes]);
    const admin = await t.user('root@example.io', ['admin']);
    alice = await t.user('alice@example.io');
    acting = t.heldFrom(await t.call(admin, 'post', `/admin/users/${alice.userId}/impersonate`).expect(200), alice);
  });
  afterAll(() => t.close());

  it.each([
    ['/change-password', { current_password: PASSWORD, new_password: 'another long passphrase' }],
    ['/change-email', { newEmail: 'new@example.io', password: PASSWORD }],
    ['/mfa/totp/setup', { password: PASSWORD }],
    ['/mfa/totp/enable', { code: '123456' }],
    ['/mfa/totp/disable', { password: PASSWORD, code: '123456' }],
    ['/mfa/recovery-codes', { password: PASSWORD, code: '123456' }],
  ] as const)('POST %s: 403 IMPERSONATION_RESTRICTED', async (path, body) => {
    expect((await t.call(acting, 'post', path, body).expect(403)).body.code).toBe('IMPERSONATION_RESTRICTED');
  });

  it("refuses the application's own @RestrictedWhileImpersonating() route, and serves it to the user", async () => {
    const post = (held: Held) => {
      const test = request(t.server).post('/app/payout-account');
      for (const [name, value] of Object.entries(held.headers)) test.set(name, value);
      return test;
    };
    expect((await post(acting).expect(403)).body.code).toBe('IMPERSONATION_RESTRICTED');
    await post(alice).expect(204);
  });
});
