import { createHash } from 'node:crypto';
import request from 'supertest';
import type { AuthOptions } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import { BASE_URL, claimsOf, cookiesOf, createTestApp, TEST_SECRET, type TestApp } from '../support/test-app.js';

export type CredentialKind = 'session' | 'jwt';
export const PASSWORD = 'correct horse battery';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** What a signed-in client holds: the session cookie, or the access token and the refresh cookie. */
export interface Held {
  userId: string;
  session?: string;
  access?: string;
  refresh?: string;
}

/** Where and how a client signs in: its `User-Agent`, and its address as the trusted proxy reports it. */
export interface Device {
  userAgent?: string;
  address?: string;
}

/** One test app of one credential, with a client that sends what a browser or an API client of it would. */
export interface DevicesApp extends TestApp {
  credential: CredentialKind;
  signup(email: string, device?: Device): Promise<Held>;
  login(email: string, device?: Device): Promise<Held>;
  /** GET /auth/me with the credential. */
  me(held: Held): request.Test;
  /** POST /auth/refresh (jwt): the next pair, which `held` then holds. */
  refresh(held: Held): Promise<request.Response>;
  list(held: Held): request.Test;
  revoke(held: Held, id: string): request.Test;
  revokeOthers(held: Held): request.Test;
  /** The id GET /sessions gives the credential: the session row's, or the access token's family. */
  idOf(held: Held): Promise<string>;
}

/**
 * A test app of `credential` behind a trusted proxy on loopback (so a test chooses the client
 * address with X-Forwarded-For), with `options` beside the credential's own section.
 */
export async function createDevicesApp(engine: Engine, credential: CredentialKind, options: { session?: AuthOptions['session']; jwt?: AuthOptions['jwt'] } = {}): Promise<DevicesApp> {
  const t = await createTestApp({
    engine,
    strategy: credential,
    options: {
      trustProxy: ['loopback'],
      ...(credential === 'jwt' ? { jwt: { secretKey: TEST_SECRET, ...options.jwt } } : options.session ? { session: options.session } : {}),
    },
  });
  const withCredential = (test: request.Test, held: Held) =>
    credential === 'jwt' ? test.set('Authorization', `Bearer ${held.access}`) : test.set('Cookie', `svc_session=${held.session}`);
  const signedIn = (path: '/auth/signup' | '/auth/login') => async (email: string, device: Device = {}) => {
    const test = request(t.server).post(path);
    if (device.userAgent !== undefined) test.set('User-Agent', device.userAgent);
    if (device.address !== undefined) test.set('X-Forwarded-For', device.address);
    const response = await test.send({ email, password: PASSWORD });
    if (response.status !== 200 && response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return heldOf(response);
  };
  const heldOf = (response: request.Response): Held => {
    const cookies = cookiesOf(response);
    if (credential === 'session') return { userId: response.body.id, session: cookies.svc_session.value };
    const access = response.body.access_token as string;
    return { userId: claimsOf(access).sub as string, access, refresh: cookies.svc_refresh.value };
  };
  return {
    ...t,
    credential,
    signup: signedIn('/auth/signup'),
    login: signedIn('/auth/login'),
    me: (held) => withCredential(request(t.server).get('/auth/me'), held),
    refresh: async (held) => {
      const response = await request(t.server).post('/auth/refresh').set('Cookie', `svc_refresh=${held.refresh}`);
      if (response.status === 200) Object.assign(held, heldOf(response));
      return response;
    },
    list: (held) => withCredential(request(t.server).get('/auth/sessions'), held),
    revoke: (held, id) => withCredential(request(t.server).delete(`/auth/sessions/${id}`), held),
    revokeOthers: (held) => withCredential(request(t.server).delete('/auth/sessions'), held),
    idOf: async (held) => {
      if (credential === 'jwt') return claimsOf(held.access!).sid as string;
      const hash = createHash('sha256').update(held.session!).digest('hex');
      const [row] = await t.dataSource.query(`SELECT id FROM sessions WHERE token_hash = '${hash}'`);
      return row.id as string;
    },
  };
}

/** The table a credential keeps its devices in. */
export function deviceTable(credential: CredentialKind): 'sessions' | 'refresh_families' {
  return credential === 'session' ? 'sessions' : 'refresh_families';
}

export { BASE_URL };

export { claimsOf };
