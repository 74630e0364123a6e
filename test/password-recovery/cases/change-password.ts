import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import request from 'supertest';
import { AuthEvent, type AuthHooks, type ChangePasswordPayload, SecretString } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { PASSWORD_STRATEGIES, RecoveryClient, recoveryOptions } from '../recovery-client.js';

const OLD = 'correct horse';
const NEW = 'battery staple';

const seen: ChangePasswordPayload[] = [];

@Injectable()
class SeeingHooks implements AuthHooks {
  beforeChangePassword(payload: ChangePasswordPayload): ChangePasswordPayload {
    seen.push(payload);
    return payload;
  }
}

/** A signed-in user changes their password: the current one is required, the other credentials end. */
describe.each(BEHAVIOUR_ENGINES.flatMap((engine) => PASSWORD_STRATEGIES.map((strategy) => [engine, strategy] as const)))(
  'POST /change-password on %s, %s strategy',
  (engine, strategy) => {
    let t: TestApp;
    let client: RecoveryClient;
    let serial = 0;
    const logger = new CapturingLogger();
    beforeAll(async () => {
      t = await createTestApp({ engine, strategy, hooks: SeeingHooks, logger, options: recoveryOptions(strategy) });
      client = new RecoveryClient(t, strategy);
    });
    afterAll(() => t?.close());

    /** A user signed in twice (two devices), and the headers of the first device's credential. */
    async function userOnTwoDevices() {
      const email = `change${++serial}@x.io`;
      await client.createUser(email, OLD);
      const loginResponse = await client.login(email, OLD);
      const headers: Record<string, string> =
        strategy === 'session' ? { Cookie: `svc_session=${loginResponse.headers['set-cookie'][0].split(';')[0].split('=')[1]}` } : { Authorization: `Bearer ${loginResponse.body.access_token}` };
      const here = client.credentialsOf(loginResponse);
      const elsewhere = await client.loginFor(email, OLD);
      return { email, headers, here, elsewhere };
    }

    const change = (headers: Record<string, string>, body: object) => request(t.server).post('/auth/change-password').set(headers).send(body);

    it('sets the new password, keeps this credential, ends the others, and sends svc.password.changed', async () => {
      const { email, headers, here, elsewhere } = await userOnTwoDevices();
      await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
      const before = t.events.payloadsOf(AuthEvent.PasswordChanged).length;
      const response = await change(headers, { current_password: OLD, new_password: NEW });
      expect(response.status).toBe(204);
      expect(await here.me()).toBe(200);
      expect(await elsewhere.statuses()).toEqual(strategy === 'session' ? [401] : [401, 401]);
      expect((await client.login(email, OLD)).status).toBe(401);
      expect((await client.login(email, NEW)).status).toBe(200);
      const [event] = (await t.events.waitFor(AuthEvent.PasswordChanged, before + 1)).slice(before);
      expect(event).toEqual({ userId: expect.any(String), at: t.clock.now() });
      expect(seen.at(-1)!.current_password).toBeInstanceOf(SecretString);
      expect(JSON.stringify(seen.at(-1))).not.toContain(OLD);
      expect(logger.lines.map((line) => line.text).join('\n')).not.toContain(NEW);
    });

    it('a wrong current password is 403 CURRENT_PASSWORD_INVALID and changes nothing', async () => {
      const { email, headers, elsewhere } = await userOnTwoDevices();
      const response = await change(headers, { current_password: 'not the password', new_password: NEW });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Current password is wrong', code: 'CURRENT_PASSWORD_INVALID' });
      expect(await elsewhere.me()).toBe(200);
      expect((await client.login(email, OLD)).status).toBe(200);
    });

    it('needs a credential (401) and a valid body (400)', async () => {
      expect((await change({}, { current_password: OLD, new_password: NEW })).status).toBe(401);
      const { headers } = await userOnTwoDevices();
      const short = await change(headers, { current_password: OLD, new_password: 'short' });
      expect(short.status).toBe(400);
      expect(short.body.message).toEqual(['new_password must be at least 8 characters']);
      expect((await change(headers, { current_password: OLD, new_password: NEW, extra: 1 })).status).toBe(400);
    });

    it('a reset-password token mailed before the change no longer works', async () => {
      const { email, headers } = await userOnTwoDevices();
      const token = await client.requestToken(email);
      expect((await change(headers, { current_password: OLD, new_password: NEW })).status).toBe(204);
      expect((await client.reset(token, 'third password')).status).toBe(400);
    });
  },
);
