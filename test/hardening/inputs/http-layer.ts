import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import type { AuthHooks, SignupPayload } from '#svc/auth';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { cookiesOf, createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';

const PASSWORD = 'correct horse';

/** Makes the signup handler throw an unexpected error: the hook hands it an email that is not a string. */
@Injectable()
class BreakingHooks implements AuthHooks {
  beforeSignup(payload: SignupPayload): SignupPayload {
    return payload.email === 'break@x.io' ? { ...payload, email: 42 as unknown as string } : payload;
  }
}

/** A raw request with the exact headers and body bytes given (supertest would rewrite some). */
function rawPost(t: TestApp, path: string, headers: Record<string, string>, chunks: Buffer[]): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }> {
  const { port } = t.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const call = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : {}, headers: response.headers }));
    });
    call.on('error', reject);
    for (const chunk of chunks) call.write(chunk);
    call.end();
  });
}

describe.each(BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((strategy) => [engine, strategy] as const)))(
  'the HTTP layer of the library routes on %s, %s strategy',
  (engine, strategy) => {
    let t: TestApp;
    const logger = new CapturingLogger();
    const json = (value: unknown) => Buffer.from(JSON.stringify(value));
    beforeAll(async () => {
      t = await createTestApp({ engine, strategy, hooks: BreakingHooks, logger, options: strategy === 'jwt' ? { jwt: { secretKey: TEST_SECRET } } : {} });
      await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => t?.close());

    async function userCount(): Promise<number> {
      return Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM users'))[0].n);
    }

    describe('bodies: JSON in UTF-8, not compressed, within the limit, refused before any parser reads them', () => {
      it.each([
        ['gzip', gzipSync],
        ['deflate', deflateSync],
        ['br', brotliCompressSync],
      ])('Content-Encoding: %s is 415 and never inflated', async (encoding, compress) => {
        const before = await userCount();
        const small = compress(json({ email: `zip-${encoding}@x.io`, password: PASSWORD }));
        const response = await rawPost(t, '/auth/signup', { 'Content-Type': 'application/json', 'Content-Encoding': encoding, 'Content-Length': String(small.length) }, [small]);
        expect(response.status).toBe(415);
        expect(response.body).toEqual({ statusCode: 415, error: 'Unsupported Media Type', message: expect.any(String), code: 'UNSUPPORTED_MEDIA_TYPE' });
        // A bomb: 100 KB of JSON in a few hundred bytes; inflated it would be a 413 from the parser.
        const bomb = compress(json({ email: 'bomb@x.io', password: PASSWORD, displayName: ' '.repeat(100_000) }));
        expect((await rawPost(t, '/auth/signup', { 'Content-Type': 'application/json', 'Content-Encoding': encoding, 'Content-Length': String(bomb.length) }, [bomb])).status).toBe(415);
        // Not even valid compressed data: the parser would have answered 400.
        expect((await rawPost(t, '/auth/login', { 'Content-Type': 'application/json', 'Content-Encoding': encoding, 'Content-Length': '4' }, [Buffer.from('junk')])).status).toBe(415);
        expect(await userCount()).toBe(before);
      });

      it.each(['utf-7', 'utf-16le', 'UTF-16', 'iso-8859-1', 'latin1'])('charset=%s is 415', async (charset) => {
        const before = await userCount();
        const body = Buffer.from(JSON.stringify({ email: `cs@x.io`, password: PASSWORD }), charset === 'utf-16le' || charset === 'UTF-16' ? 'utf16le' : 'latin1');
        const response = await rawPost(t, '/auth/signup', { 'Content-Type': `application/json; charset=${charset}`, 'Content-Length': String(body.length) }, [body]);
        expect(response.status).toBe(415);
        expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
        expect(await userCount()).toBe(before);
      });

      it('accepts charset=utf-8 in any case, quoted or not', async () => {
        for (const [i, charset] of ['utf-8', 'UTF-8', '"utf-8"'].entries()) {
          const body = json({ email: `charset${i}@x.io`, password: PASSWORD });
          const response = await rawPost(t, '/auth/signup', { 'Content-Type': `application/json; charset=${charset}`, 'Content-Length': String(body.length) }, [body]);
          expect(response.status).toBe(201);
        }
      });

      it('a body that is not valid UTF-8 is MALFORMED_JSON, not a string of replacement characters', async () => {
        const body = Buffer.concat([Buffer.from('{"email":"bad'), Buffer.from([0xc3, 0x28]), Buffer.from('@x.io","password":"correct horse"}')]);
        const response = await rawPost(t, '/auth/signup', { 'Content-Type': 'application/json', 'Content-Length': String(body.length) }, [body]);
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('MALFORMED_JSON');
      });

      it('a chunked body over 16 KiB is 413; within the limit it is read', async () => {
        const before = await userCount();
        const chunk = Buffer.from(' '.repeat(4096));
        const big = [Buffer.from('{"email":"chunk@x.io",'), ...Array.from({ length: 5 }, () => chunk), Buffer.from('"password":"correct horse"}')];
        const refused = await rawPost(t, '/auth/signup', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, big);
        expect(refused.status).toBe(413);
        expect(refused.body.code).toBe('PAYLOAD_TOO_LARGE');
        expect(await userCount()).toBe(before);
        const small = [Buffer.from('{"email":"chunk@x.io",'), chunk, Buffer.from('"password":"correct horse"}')];
        expect((await rawPost(t, '/auth/signup', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, small)).status).toBe(201);
      });
    });

    describe('every request Express routes to a library handler, whatever the case of its path', () => {
      it('answers an unexpected error with 500 INTERNAL_ERROR, the auth headers, and a log line without stack', async () => {
        logger.clear();
        for (const path of ['/auth/signup', '/AUTH/signup', '/Auth/Signup/']) {
          const response = await request(t.server).post(path).send({ email: 'break@x.io', password: PASSWORD });
          expect(response.status).toBe(500);
          expect(response.body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error', code: 'INTERNAL_ERROR' });
          expect(response.headers['cache-control']).toBe('no-store');
          expect(response.headers['referrer-policy']).toBe('no-referrer');
        }
        expect(logger.lines.filter((line) => line.level === 'error')).toHaveLength(3);
        for (const line of logger.lines) expect(line.text).not.toMatch(/\n\s+at /);
      });

      it('applies the body rules to case-variant paths too', async () => {
        const body = gzipSync(json({ email: 'case@x.io', password: PASSWORD }));
        const response = await rawPost(t, '/AUTH/SIGNUP', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(body.length) }, [body]);
        expect(response.status).toBe(415);
        expect(response.headers['cache-control']).toBe('no-store');
      });

      it('answers an unknown path or method under the prefix with 404 NOT_FOUND and the auth headers', async () => {
        for (const call of [request(t.server).get('/auth/nope'), request(t.server).post('/auth/me'), request(t.server).get('/AUTH/nope/deeper'), request(t.server).delete('/auth/login')]) {
          const response = await call;
          expect(response.status).toBe(404);
          expect(response.body).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String), code: 'NOT_FOUND' });
          expect(response.headers['cache-control']).toBe('no-store');
        }
        const outside = await request(t.server).get('/nope');
        expect(outside.status).toBe(404);
        expect(outside.body.code).toBeUndefined();
      });

      it('answers a path parameter that is not valid percent-encoding with 400 VALIDATION_FAILED, the error body and the auth headers', async () => {
        logger.clear();
        for (const path of ['/auth/sessions/%ZZ', '/AUTH/Sessions/%E0%A4%A', '/auth/sessions/100%']) {
          const response = await request(t.server).delete(path);
          expect([path, response.status, response.body]).toEqual([
            path,
            400,
            { statusCode: 400, error: 'Bad Request', message: ['path: a parameter is not valid percent-encoding'], code: 'VALIDATION_FAILED' },
          ]);
          expect(response.headers['cache-control']).toBe('no-store');
        }
        expect(logger.lines.filter((line) => line.level === 'error')).toEqual([]);
      });

      it('sends no X-Powered-By header', async () => {
        for (const response of [await request(t.server).get('/auth/me'), await request(t.server).get('/auth/nope'), await request(t.server).post('/auth/login').send({})]) {
          expect(response.headers['x-powered-by']).toBeUndefined();
        }
      });
    });

    it('the cross-site check sees every cookie the authentication parser sees (space or tab before "=")', async () => {
      const signup = await request(t.server).post('/auth/signup').send({ email: `csrf-${engine}-${strategy}@x.io`, password: PASSWORD });
      const name = strategy === 'session' ? 'svc_session' : 'svc_refresh';
      const token = cookiesOf(signup)[name].value;
      for (const cookie of [`${name} =${token}`, `${name}\t=${token}`, `other=1; ${name}  =${token}`]) {
        for (const path of strategy === 'session' ? ['/auth/logout'] : ['/auth/logout', '/auth/refresh']) {
          const response = await request(t.server).post(path).set('Cookie', cookie).set('Origin', 'https://evil.test');
          expect({ cookie, path, status: response.status, code: response.body.code }).toEqual({ cookie, path, status: 403, code: 'CSRF_REJECTED' });
        }
      }
      // The credential still works from the right origin.
      const own = strategy === 'session' ? await request(t.server).get('/auth/me').set('Cookie', `${name} =${token}`) : await request(t.server).post('/auth/refresh').set('Cookie', `${name} =${token}`);
      expect(own.status).toBe(200);
    });
  },
);
