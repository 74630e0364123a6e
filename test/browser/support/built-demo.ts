import { type DemoProcess, runDemo } from '../../demo/demo-process.js';
import { reserveLoopbackPort } from '../../support/listen.js';

export const DEMO_SECRET = 'b7Xq2Lm9Rv4Tz8Kc1Nw6Hp3Jf5Gd0SaE';

/**
 * The built demo (`npm start`'s dist/) on 127.0.0.1, its base URL that origin, on an in-memory
 * SQLite database. Its cookies are Secure: Chromium keeps them on http://127.0.0.1, a
 * potentially trustworthy origin.
 */
export async function startBuiltDemo(env: Record<string, string> = {}, port?: number): Promise<DemoProcess> {
  const listenOn = port ?? (await reserveLoopbackPort());
  const started = await runDemo({
    PORT: String(listenOn),
    AUTH_BASE_URL: `http://127.0.0.1:${listenOn}`,
    DATABASE_URL: 'sqlite::memory:',
    AUTH_SECRET: DEMO_SECRET,
    ...env,
  });
  if ('exitCode' in started) throw new Error(`the demo exited with ${started.exitCode}: ${started.stderr}`);
  return started;
}

/** Registers an account through the API, for tests about what comes after signing up. */
export async function registerAccount(demo: DemoProcess, email: string, password: string): Promise<void> {
  const response = await fetch(`${demo.baseUrl}/auth/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 201) throw new Error(`signup of ${email} answered ${response.status}: ${await response.text()}`);
}
