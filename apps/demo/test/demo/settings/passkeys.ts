import { beforeAll, describe, expect, it } from '@jest/globals';
import { reserveLoopbackPort } from '../../../../../test/support/listen.js';
import { type DemoProcess, startSuiteDemo, type SuiteDemo } from '../demo-process.js';
import { startForSuite } from '../suite-demos.js';
import { localhostDemoKey, startLocalhostDemo } from './shared-demos.js';

const SECRET = 'Vq8Lm3Xr6Tz1Kc9Nw4Hp7Jf2Gd5SaEb0';

const PASSKEY_ROUTES = [
  'DELETE /auth/passkeys/{id}',
  'GET /auth/passkeys',
  'PATCH /auth/passkeys/{id}',
  'POST /auth/passkeys/login',
  'POST /auth/passkeys/login/options',
  'POST /auth/passkeys/register',
  'POST /auth/passkeys/register/options',
];

type Document = { paths: Record<string, Record<string, unknown>> };

async function routesOf(demo: DemoProcess): Promise<string[]> {
  const document = (await (await fetch(`${demo.baseUrl}/docs-json`)).json()) as Document;
  return Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
}

async function startDemo(env: Record<string, string>, baseUrlOf: (port: number) => string): Promise<SuiteDemo> {
  const port = await reserveLoopbackPort();
  return startSuiteDemo({ PORT: String(port), AUTH_BASE_URL: baseUrlOf(port), DATABASE_URL: 'sqlite::memory:', AUTH_SECRET: SECRET, ...env });
}

// AUTH_STRATEGY=session and jwt: the demos native-clients.ts drives too (shared-demos.ts).
const ON_LOCALHOST: [string, () => Promise<SuiteDemo>, string | undefined][] = [
  ['AUTH_STRATEGY=session', () => startLocalhostDemo('session'), localhostDemoKey('session')],
  ['AUTH_STRATEGY=jwt', () => startLocalhostDemo('jwt'), localhostDemoKey('jwt')],
  ['AUTH_LOGIN=password, AUTH_CREDENTIAL=jwt', () => startDemo({ AUTH_LOGIN: 'password', AUTH_CREDENTIAL: 'jwt' }, (port) => `http://localhost:${port}`), undefined],
];
const WITHOUT_PASSKEYS: [string, (port: number) => string, string][] = [
  ['an IP address', (port: number) => `http://127.0.0.1:${port}`, 'is on an IP address'],
  ['plain http away from localhost', () => 'http://demo.example.com', 'is plain http away from localhost'],
];

// Every demo of this file starts at once.
const demos = startForSuite<string, SuiteDemo>(
  {
    ...Object.fromEntries(ON_LOCALHOST.map(([name, start]) => [name, start])),
    ...Object.fromEntries(WITHOUT_PASSKEYS.map(([name, baseUrlOf]) => [name, () => startDemo({}, baseUrlOf)])),
  },
  Object.fromEntries(ON_LOCALHOST.flatMap(([name, , key]) => (key ? [[name, key]] : []))),
);

/** docs/demo.md: passkeys come with the password, their relying party AUTH_BASE_URL's host. */
describe.each(ON_LOCALHOST)('the demo with %s on http://localhost', (name) => {
  let demo: DemoProcess;

  beforeAll(() => {
    demo = demos[name]!.demo;
  });

  it('lists the passkey routes in /docs-json', async () => {
    expect(await routesOf(demo)).toEqual(expect.arrayContaining(PASSKEY_ROUTES));
  });

  it('serves the page with "Sign in with a passkey" and "Add a passkey"', async () => {
    const page = await (await fetch(`${demo.baseUrl}/`)).text();
    expect(page).toContain('>Sign in with a passkey</button>');
    expect(page).toContain('>Add a passkey</button>');
  });

  it('answers login options for the relying party localhost, no user named, the challenge in an HttpOnly cookie', async () => {
    const response = await fetch(`${demo.baseUrl}/auth/passkeys/login/options`, { method: 'POST' });
    expect(response.status).toBe(200);
    const options = (await response.json()) as { rpId: string; challenge: string; allowCredentials?: unknown[] };
    expect(options.rpId).toBe('localhost');
    expect(options.challenge).toEqual(expect.any(String));
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(response.headers.getSetCookie().join('\n')).toMatch(/HttpOnly/i);
  });

  it('refuses registration options without a credential', async () => {
    const response = await fetch(`${demo.baseUrl}/auth/passkeys/register/options`, { method: 'POST' });
    expect(response.status).toBe(401);
  });
});

describe.each(WITHOUT_PASSKEYS)('the demo with a password and AUTH_BASE_URL on %s', (name, _baseUrlOf, reason) => {
  let demo: DemoProcess;

  beforeAll(() => {
    demo = demos[name]!.demo;
  });

  it('starts without passkeys, and says why', async () => {
    expect((await fetch(`${demo.baseUrl}/auth/passkeys/login/options`, { method: 'POST' })).status).toBe(404);
    expect((await routesOf(demo)).filter((route) => route.includes('/passkeys'))).toEqual([]);
    expect(await (await fetch(`${demo.baseUrl}/`)).text()).not.toContain('passkey');
    expect(demo.lines.find((line) => line.includes('passkeys are off'))).toContain(reason);
  });
});
