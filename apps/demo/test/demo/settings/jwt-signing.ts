import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { reserveLoopbackPort } from '../../../../../test/support/listen.js';
import { startSuiteDemo, type SuiteDemo } from '../demo-process.js';
import { startForSuite } from '../suite-demos.js';
import { clientDemoKey, startClientDemo } from './shared-demos.js';

/** The jwt demo on SQLite with `env`; signing is engine-independent. */
async function startJwtDemo(env: Record<string, string>): Promise<SuiteDemo> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-demo-jwt-'));
  const port = await reserveLoopbackPort();
  return startSuiteDemo(
    { PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'demo.sqlite')}`, AUTH_BASE_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_BACKEND: 'off', AUTH_STRATEGY: 'jwt', ...env },
    async () => rmSync(dir, { recursive: true, force: true }),
  );
}

async function signUp(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'correct horse battery' }) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { access_token: string }).access_token;
}

const KEY = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const started = startForSuite({
  generated: () => startJwtDemo({ AUTH_JWT_ALG: 'ES256' }),
  given: () => startJwtDemo({ AUTH_JWT_ALG: 'EdDSA', AUTH_JWT_KEYS: JSON.stringify([{ kid: 'demo-key', privateKey: KEY }]) }),
  // Without AUTH_JWT_ALG: client.ts's jwt demo (shared-demos.ts), HMAC as any jwt demo without it.
  hmac: () => startClientDemo('jwt'),
}, { hmac: clientDemoKey('jwt') });

describe('the demo with AUTH_JWT_ALG (docs/demo.md)', () => {
  let demos: Record<'generated' | 'given' | 'hmac', SuiteDemo>;
  beforeAll(() => {
    demos = started as Record<'generated' | 'given' | 'hmac', SuiteDemo>;
  });

  it('without AUTH_JWT_KEYS generates a key, says so on stderr (no MAIL or EVENT line), and serves it at /auth/jwks', async () => {
    const { demo } = demos.generated;
    expect(demo.stderr!()).toContain('AUTH_JWT_KEYS is not set: one ES256 key generated for this run');
    expect(demo.lines.filter((line) => line.includes('AUTH_JWT_KEYS'))).toEqual([]);
    const jwks = await fetch(`${demo.baseUrl}/auth/jwks`);
    expect(jwks.status).toBe(200);
    const { keys } = (await jwks.json()) as { keys: { kid: string; alg: string; d?: string }[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ alg: 'ES256', use: 'sig' });
    expect(keys[0].d).toBeUndefined();
    const access = await signUp(demo.baseUrl, 'generated@example.io');
    expect(decodeProtectedHeader(access).kid).toBe(keys[0].kid);
  });

  it('with AUTH_JWT_KEYS signs with the given key, which jose verifies against /auth/jwks', async () => {
    const { demo } = demos.given;
    expect(demo.stderr!()).not.toContain('AUTH_JWT_KEYS');
    const access = await signUp(demo.baseUrl, 'given@example.io');
    expect(decodeProtectedHeader(access)).toMatchObject({ alg: 'EdDSA', kid: 'demo-key' });
    const { payload } = await jwtVerify(access, createRemoteJWKSet(new URL(`${demo.baseUrl}/auth/jwks`)), { issuer: demo.baseUrl, audience: demo.baseUrl });
    expect(payload.roles).toEqual(['member']);
  });

  it('unset, signs with HMAC as before and has no /auth/jwks', async () => {
    const { demo } = demos.hmac;
    expect((await fetch(`${demo.baseUrl}/auth/jwks`)).status).toBe(404);
    expect(decodeProtectedHeader(await signUp(demo.baseUrl, 'hmac@example.io'))).toEqual({ alg: 'HS256', typ: 'JWT' });
  });
});
