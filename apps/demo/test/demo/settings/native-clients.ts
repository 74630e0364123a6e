import { describe, expect, it } from '@jest/globals';
import { startForSuite } from '../suite-demos.js';
import { localhostDemoKey, startLocalhostDemo } from './shared-demos.js';

const NATIVE = { 'x-svc-client': 'native', 'content-type': 'application/json' };

// The demos passkeys.ts drives on http://localhost too (shared-demos.ts).
const started = startForSuite({ session: () => startLocalhostDemo('session'), jwt: () => startLocalhostDemo('jwt') }, { session: localhostDemoKey('session'), jwt: localhostDemoKey('jwt') });

// docs/demo.md, AUTH_NATIVE_CLIENTS=on: tokens in the body beside the browser credential, under either.
describe.each(['session', 'jwt'] as const)('the demo with AUTH_STRATEGY=%s and AUTH_NATIVE_CLIENTS=on', (strategy) => {
  it('a native signup gets the tokens in the body and no cookie; the bearer token, refresh and logout work', async () => {
    const url = started[strategy]!.demo.baseUrl;
    const signup = await fetch(`${url}/auth/signup`, { method: 'POST', headers: NATIVE, body: JSON.stringify({ email: 'ada@example.io', password: 'correct horse battery' }) });
    expect(signup.status).toBe(201);
    expect(signup.headers.get('set-cookie')).toBeNull();
    const tokens = (await signup.json()) as { access_token: string; refresh_token: string };
    expect(Object.keys(tokens).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);

    const me = await fetch(`${url}/auth/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe('ada@example.io');

    const refreshed = await fetch(`${url}/auth/refresh`, { method: 'POST', headers: NATIVE, body: JSON.stringify({ refresh_token: tokens.refresh_token }) });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { refresh_token: string };
    const logout = await fetch(`${url}/auth/logout`, { method: 'POST', headers: NATIVE, body: JSON.stringify({ refresh_token: next.refresh_token }) });
    expect(logout.status).toBe(204);
    const after = await fetch(`${url}/auth/refresh`, { method: 'POST', headers: NATIVE, body: JSON.stringify({ refresh_token: next.refresh_token }) });
    expect(after.status).toBe(401);
  });
});
