import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AuthOptions } from '#svc/auth';
import { createSvcClient, type RefreshTokenStorage, type SvcClient } from '#svc/auth/client';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type ClientApp, createClientApp, PASSWORD } from '../client-kit.js';

/** The app's keychain, in memory: what the client keeps between two starts of the app. */
function keychain(): RefreshTokenStorage & { token: string | null } {
  const store = {
    token: null as string | null,
    get: async () => store.token,
    set: async (token: string) => {
      store.token = token;
    },
    delete: async () => {
      store.token = null;
    },
  };
  return store;
}

describe.each(BEHAVIOUR_ENGINES)('the client as a native app (X-Svc-Client: native) on %s, against a session module with nativeClients', (engine) => {
  let app: ClientApp;
  const started: SvcClient[] = [];
  const seenHeaders: Array<string | null> = [];
  beforeAll(async () => {
    app = await createClientApp(engine, 'session', { nativeClients: true } as Partial<AuthOptions>);
  });
  afterAll(async () => {
    for (const client of started) client.dispose();
    await app.close();
  });

  /** A start of the app: no cookie jar (a native app has none), the platform's fetch, the keychain of `storage`. */
  function startApp(storage: RefreshTokenStorage): SvcClient {
    const client = createSvcClient({
      baseUrl: app.url,
      credential: 'session',
      native: { storage },
      fetch: (input, init) => {
        seenHeaders.push(new Headers(init.headers).get('X-Svc-Client'));
        return fetch(input, init);
      },
    });
    started.push(client);
    return client;
  }

  it('signs in with tokens in the body, keeps the refresh token in its storage, restores from it at the next start, and logs out', async () => {
    await app.person().client.signup({ email: 'native@client.test', password: PASSWORD });
    const storage = keychain();
    const first = startApp(storage);
    await expect(first.login('native@client.test', PASSWORD)).resolves.toMatchObject({ status: 'signed-in', user: { email: 'native@client.test' } });
    const issued = storage.token;
    expect(issued).toEqual(expect.any(String));
    // The signup's browser session, and this app's family (the current one).
    const devices = await first.devices.list();
    expect(devices.filter((device) => device.current)).toHaveLength(1);
    expect(devices).toHaveLength(2);
    first.dispose();

    const second = startApp(storage);
    await expect(second.restore()).resolves.toMatchObject({ status: 'signed-in', user: { email: 'native@client.test' } });
    // Refresh tokens are single use (RFC 9700 §4.14.2): the restore replaced the stored one.
    expect(storage.token).toEqual(expect.any(String));
    expect(storage.token).not.toBe(issued);
    await second.logout();
    expect(storage.token).toBeNull();
    expect(second.getSnapshot()).toEqual({ status: 'signed-out' });

    const third = startApp(storage);
    await expect(third.restore()).resolves.toEqual({ status: 'signed-out' });
    expect(seenHeaders.length).toBeGreaterThan(0);
    expect(new Set(seenHeaders)).toEqual(new Set(['native']));
  });

  it('a refresh token spent by an earlier start is refused: the store is signed out and the token is gone', async () => {
    await app.person().client.signup({ email: 'replayed@client.test', password: PASSWORD });
    const storage = keychain();
    const first = startApp(storage);
    await first.login('replayed@client.test', PASSWORD);
    const spent = storage.token!;
    await startApp(storage).restore();
    const stale = keychain();
    await stale.set(spent);
    await expect(startApp(stale).restore()).resolves.toEqual({ status: 'signed-out' });
  });
});
