// Demos that two modules of the settings suite drive, each under the key that names its whole
// environment (startForSuite's shareAs): the modules' tests use emails of their own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reserveLoopbackPort } from '../../../../../test/support/listen.js';
import { startSuiteDemo, type SuiteDemo } from '../demo-process.js';

const SECRET = 'Rk7Yq2Nv9Lx4Tc8Mz3Hb6Wj1Pf5Gd0Sa';

/**
 * The demo with AUTH_STRATEGY=`strategy` on http://localhost (passkeys on beside the password) and
 * AUTH_NATIVE_CLIENTS=on, in memory: passkeys.ts and native-clients.ts drive the same one (native
 * mode changes only the requests that say `X-Svc-Client: native`; the passkey routes are the same with it).
 */
export async function startLocalhostDemo(strategy: 'session' | 'jwt'): Promise<SuiteDemo> {
  const port = await reserveLoopbackPort();
  return startSuiteDemo({ PORT: String(port), AUTH_BASE_URL: `http://localhost:${port}`, DATABASE_URL: 'sqlite::memory:', AUTH_SECRET: SECRET, AUTH_STRATEGY: strategy, AUTH_NATIVE_CLIENTS: 'on' });
}

export const localhostDemoKey = (strategy: 'session' | 'jwt') => `demo on http://localhost, AUTH_STRATEGY=${strategy}, AUTH_NATIVE_CLIENTS=on`;

/**
 * The demo on its own SQLite file with `credential`, API keys and organizations on, as `npm start`
 * runs it: client.ts's, and with jwt, jwt-signing.ts's demo without AUTH_JWT_ALG (HMAC over the secret).
 */
export async function startClientDemo(credential: 'session' | 'jwt'): Promise<SuiteDemo> {
  const dir = mkdtempSync(join(tmpdir(), `svc-demo-client-${credential}-`));
  const port = await reserveLoopbackPort();
  return startSuiteDemo(
    {
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, 'demo.sqlite')}`,
      AUTH_BASE_URL: `http://127.0.0.1:${port}`,
      AUTH_STRATEGY: credential,
      AUTH_API_KEYS: 'on',
      AUTH_ORGANIZATIONS: 'on',
      COOKIE_SECURE: 'false',
      RATE_LIMIT_BACKEND: 'off',
    },
    async () => rmSync(dir, { recursive: true, force: true }),
  );
}

export const clientDemoKey = (credential: 'session' | 'jwt') => `client demo, AUTH_STRATEGY=${credential}, AUTH_API_KEYS=on, AUTH_ORGANIZATIONS=on`;
