import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { canUsePostgres } from '../../support/engines.js';
import { describeNotRun } from '../../support/not-run.js';
import { createPasskeyApp, PASSKEY_INVALID, type PasskeyApp } from '../passkey-kit.js';

if (await canUsePostgres()) {
  describe.each(['session', 'jwt'] as const)('passkey challenges across two instances on one PostgreSQL, %s credential (docs/decisions/0021-passkeys-webauthn.md)', (credential) => {
    let first: PasskeyApp;
    let second: PasskeyApp;
    beforeAll(async () => {
      first = await createPasskeyApp({ engine: 'postgres', credential });
      second = await createPasskeyApp({ engine: 'postgres', credential, sharedWith: first });
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it("options from one instance, the answer to the other: a login; the same challenge again, on either: 401 PASSKEY_INVALID", async () => {
      const browser = first.browser();
      await browser.signup('two-instances@x.io');
      expect((await browser.register()).answer.status).toBe(201);
      browser.signOut();
      const options = await browser.send('post', '/auth/passkeys/login/options');
      const cookie = browser.cookies.get('svc_passkey')!;
      const onSecond = browser.at(second);
      expect((await onSecond.send('post', '/auth/passkeys/login', { response: browser.authenticator.get(options.body) })).status).toBe(200);
      for (const instance of [first, second]) {
        const replay = browser.at(instance);
        replay.cookies.set('svc_passkey', cookie);
        const answer = await replay.send('post', '/auth/passkeys/login', { response: browser.authenticator.get(options.body) });
        expect([answer.status, answer.body]).toEqual([401, PASSKEY_INVALID]);
      }
    });

    it('one challenge answered on both instances at once: exactly one signs in', async () => {
      const browser = first.browser();
      await browser.signup('racing-instances@x.io');
      expect((await browser.register()).answer.status).toBe(201);
      browser.signOut();
      const options = await browser.send('post', '/auth/passkeys/login/options');
      const cookie = browser.cookies.get('svc_passkey')!;
      const answers = await Promise.all(
        [first, second].map((instance) => {
          const page = instance.browser();
          page.cookies.set('svc_passkey', cookie);
          return page.send('post', '/auth/passkeys/login', { response: browser.authenticator.get(options.body) });
        }),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    });
  });
} else {
  describeNotRun('passkey challenges across two instances on one PostgreSQL', 'PostgreSQL unreachable on 127.0.0.1:5432 (REQUIRE_POSTGRES=1 makes this a failure)');
}
