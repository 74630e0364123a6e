import { describe, expect, it } from '@jest/globals';
import { createSvcClient } from './create-svc-client.js';
import { isSvcError, type SvcError } from './svc-client-error.js';

const USER = { id: 'a1', email: 'ada@example.com' };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** A session client whose server answers `/me` with the user and every other route with `answer`. */
function clientAnswering(answer: () => Response | Promise<Response>) {
  return createSvcClient({
    baseUrl: 'https://app.test/',
    credential: 'session',
    fetch: async (input) => (input.endsWith('/auth/me') ? json(200, USER) : answer()),
  });
}

async function thrown(promise: Promise<unknown>): Promise<SvcError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isSvcError(error)) throw new Error(`not an SvcError: ${String(error)}`);
  return error;
}

describe('errors the client throws', () => {
  it('carry the code, status and message of the svc error body', async () => {
    const client = clientAnswering(() => json(401, { statusCode: 401, error: 'Unauthorized', message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' }));
    const error = await thrown(client.login('ada@example.com', 'wrong'));
    expect(error).toMatchObject({ name: 'SvcClientError', code: 'INVALID_CREDENTIALS', status: 401, message: 'Invalid credentials' });
  });

  it('REAUTH_REQUIRED: narrows to its methods, and the store asks the signed-in user to sign in again', async () => {
    const client = clientAnswering(() => json(403, { statusCode: 403, error: 'Forbidden', message: 'Sign in again', code: 'REAUTH_REQUIRED', methods: ['password', 'passkey'] }));
    await client.me();
    const error = await thrown(client.twoStep.setup('pw'));
    if (error.code !== 'REAUTH_REQUIRED') throw new Error('narrowing');
    expect(error.methods).toEqual(['password', 'passkey']);
    expect(client.getSnapshot()).toEqual({ status: 'reauth-required', user: USER, methods: ['password', 'passkey'] });
  });

  it('RATE_LIMITED: narrows to Retry-After in seconds', async () => {
    const client = clientAnswering(() => json(429, { statusCode: 429, error: 'Too Many Requests', message: 'Too many requests', code: 'RATE_LIMITED' }, { 'Retry-After': '42' }));
    const error = await thrown(client.forgotPassword('ada@example.com'));
    expect(error.code === 'RATE_LIMITED' && error.retryAfterSeconds).toBe(42);
  });

  it('VALIDATION_FAILED: narrows to the list of problems', async () => {
    const client = clientAnswering(() => json(400, { statusCode: 400, error: 'Bad Request', message: ['email must be an email'], code: 'VALIDATION_FAILED' }));
    const error = await thrown(client.forgotPassword('nope'));
    expect(error.code === 'VALIDATION_FAILED' && error.problems).toEqual(['email must be an email']);
  });

  it('UNEXPECTED_RESPONSE for an answer that is no svc body, NETWORK_ERROR for none at all', async () => {
    const html = clientAnswering(() => new Response('<h1>Bad gateway</h1>', { status: 502, headers: { 'Content-Type': 'text/html' } }));
    expect(await thrown(html.forgotPassword('ada@example.com'))).toMatchObject({ code: 'UNEXPECTED_RESPONSE', status: 502 });
    const down = clientAnswering(() => Promise.reject(new TypeError('fetch failed')));
    expect(await thrown(down.forgotPassword('ada@example.com'))).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });

  it('a credential refused with 401 UNAUTHENTICATED signs the store out', async () => {
    let gone = false;
    const client = createSvcClient({
      baseUrl: 'https://app.test',
      credential: 'session',
      fetch: async () => (gone ? json(401, { statusCode: 401, error: 'Unauthorized', message: 'Authentication required', code: 'UNAUTHENTICATED' }) : json(200, USER)),
    });
    await client.me();
    expect(client.getSnapshot().status).toBe('signed-in');
    gone = true;
    await expect(client.devices.list()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(client.getSnapshot()).toEqual({ status: 'signed-out' });
  });
});
