import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';

const PASSWORD = 'correct horse';

/** Raw JSON text, so that lone surrogates, duplicate keys and `__proto__` reach the server as written. */
function postJson(t: TestApp, path: string, json: string) {
  return request(t.server).post(path).set('Content-Type', 'application/json').send(json);
}

/** docs/decisions/0006-validation.md: the input rules of every library endpoint that takes a body. */
describe.each(BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((strategy) => [engine, strategy] as const)))(
  'input rules on %s, %s strategy',
  (engine, strategy) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ engine, strategy, options: strategy === 'jwt' ? { jwt: { secretKey: TEST_SECRET } } : {} });
      expect((await request(t.server).post('/auth/signup').send({ email: 'alice@x.io', password: PASSWORD })).status).toBe(201);
    });
    afterAll(() => t?.close());

    async function rows(): Promise<unknown[]> {
      return [
        ...(await t.dataSource.query('SELECT id, email, password_hash, display_name FROM users ORDER BY id')),
        ...(await t.dataSource.query('SELECT id FROM sessions ORDER BY id')),
        ...(await t.dataSource.query('SELECT id FROM refresh_tokens ORDER BY id')),
      ];
    }

    /** Sends `json` to `path` and expects 400 VALIDATION_FAILED with nothing written. */
    async function expectRefused(path: string, json: string, problem?: RegExp): Promise<void> {
      const before = await rows();
      const response = await postJson(t, path, json);
      expect({ path, json: json.slice(0, 80), status: response.status, code: response.body.code }).toEqual({
        path,
        json: json.slice(0, 80),
        status: 400,
        code: 'VALIDATION_FAILED',
      });
      expect(response.body.statusCode).toBe(400);
      if (problem) expect((response.body.message as string[]).join('\n')).toMatch(problem);
      expect(await rows()).toEqual(before);
    }

    describe('look-alike emails (Unicode Cc and Cf) are refused; NFKC, case and spaces fold into one account', () => {
      it.each([
        ['zero-width space', 'ali\u200bce@x.io'],
        ['zero-width joiner', 'ali\u200dce@x.io'],
        ['soft hyphen', 'ali\u00adce@x.io'],
        ['right-to-left override', '\u202ealice@x.io'],
        ['byte order mark', '\ufeffalice@x.io'],
        ['tab', 'alice@x.io\t'],
      ])('%s', async (_name, email) => {
        await expectRefused('/auth/signup', JSON.stringify({ email, password: PASSWORD }), /email/);
        await expectRefused('/auth/login', JSON.stringify({ email, password: PASSWORD }), /email/);
        await expectRefused('/auth/forgot-password', JSON.stringify({ email }), /email/);
      });

      it('fullwidth letters, capitals and surrounding spaces name the same account', async () => {
        for (const email of ['\uff41lice@x.io', ' Alice@X.IO ', '\uff21\uff2c\uff29\uff23\uff25@\uff38.io']) {
          const signup = await request(t.server).post('/auth/signup').send({ email, password: PASSWORD });
          expect(signup.status).toBe(409);
          expect(signup.body.code).toBe('EMAIL_ALREADY_REGISTERED');
          expect((await request(t.server).post('/auth/login').send({ email, password: PASSWORD })).status).toBe(200);
        }
        expect(await t.dataSource.query("SELECT email FROM users WHERE email LIKE '%lice%'")).toEqual([{ email: 'alice@x.io' }]);
      });
    });

    describe('NUL and malformed Unicode in any string field are 400 before any engine sees them', () => {
      it.each([
        ['/auth/signup', { email: 'nul@x.io', password: PASSWORD, displayName: 'x\u0000y' }],
        ['/auth/signup', { email: 'nul\u0000@x.io', password: PASSWORD }],
        ['/auth/signup', { email: 'nul@x.io', password: 'correct\u0000horse' }],
        ['/auth/login', { email: 'alice\u0000@x.io', password: PASSWORD }],
        ['/auth/login', { email: 'alice@x.io', password: 'correct horse\u0000' }],
        ['/auth/forgot-password', { email: 'alice@x.io\u0000' }],
        ['/auth/reset-password', { token: 'abc\u0000', password: PASSWORD }],
      ])('NUL: %s %j', async (path, body) => {
        await expectRefused(path, JSON.stringify(body), /NUL|null character/i);
      });

      it.each([
        ['/auth/signup', '{"email":"s\\ud800@x.io","password":"correct horse"}'],
        ['/auth/signup', '{"email":"s@x.io","password":"correct horse","displayName":"\\udc00"}'],
        ['/auth/login', '{"email":"alice@x.io","password":"correct horse \\ud800"}'],
        ['/auth/reset-password', '{"token":"\\udfff","password":"correct horse"}'],
      ])('lone surrogate: %s %s', async (path, json) => {
        await expectRefused(path, json, /malformed Unicode/);
      });

      it('two passwords differing only in their lone surrogates do not match each other', async () => {
        const email = 'surrogates@x.io';
        await expectRefused('/auth/signup', `{"email":"${email}","password":"pass word \\ud800"}`);
        expect((await request(t.server).post('/auth/signup').send({ email, password: PASSWORD })).status).toBe(201);
        await expectRefused('/auth/login', `{"email":"${email}","password":"correct horse\\udc01"}`);
      });
    });

    it('a value nested 1,500 levels deep in a string field is 400, not 500', async () => {
      const deep = `${'['.repeat(1500)}"x"${']'.repeat(1500)}`;
      await expectRefused('/auth/signup', `{"email":"deep@x.io","password":"correct horse","displayName":${deep}}`);
      await expectRefused('/auth/login', `{"email":${deep},"password":"correct horse"}`);
      await expectRefused('/auth/forgot-password', `{"email":"a@x.io","extra":${deep}}`);
    });

    it.each(['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'])('the key %s is an unknown field (400), never dropped', async (key) => {
      await expectRefused('/auth/signup', `{"email":"keys@x.io","password":"correct horse","${key}":{"isActive":false}}`, new RegExp(`property ${key} should not exist`));
      await expectRefused('/auth/login', `{"email":"alice@x.io","password":"correct horse","${key}":"x"}`, new RegExp(`property ${key} should not exist`));
      await expectRefused('/auth/forgot-password', `{"email":"alice@x.io","${key}":1}`);
    });

    it('duplicate keys and huge numbers are ordinary validation failures', async () => {
      await expectRefused('/auth/login', '{"email":"alice@x.io","password":"correct horse","password":1e400}');
      await expectRefused('/auth/signup', '{"email":"big@x.io","password":"correct horse","displayName":123456789012345678901234567890}');
    });
  },
);
