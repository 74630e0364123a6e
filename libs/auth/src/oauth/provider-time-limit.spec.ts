import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthOptions } from '../config/auth-options.js';
import type { OAuth2ProviderOptions } from '../config/oauth-options.js';
import { validateAuthOptions } from '../config/validate-auth-options.js';
import { AuthError } from '../errors/auth.error.js';
import { OAuth2Providers } from '../oauth2/oauth2-providers.js';
import { providerCallMs, ProviderTimeLimit } from './provider-time-limit.js';

const SECRET = 'Zr4p9WqL2vX8nT6yB1cM5kD7hF3sJ0gA';
const mapper = async () => ({ provider: 'slow', providerUserId: '1', email: null, emailVerified: false, name: null, avatarUrl: null });

function configOf(base: string, providerTimeoutSeconds?: number) {
  const provider: OAuth2ProviderOptions = {
    name: 'slow',
    clientId: 'client',
    clientSecret: 'Tq7vR2mXp9LwK4zN8bHc3JfY6sDg0aEu',
    authorizationUrl: `${base}/authorize`,
    tokenUrl: `${base}/token`,
    userinfoUrl: `${base}/userinfo`,
    mapProfileToUser: mapper,
  };
  const options: AuthOptions = { baseUrl: 'http://127.0.0.1', oauth2: { secretKey: SECRET, providers: [provider], ...(providerTimeoutSeconds === undefined ? {} : { providerTimeoutSeconds }) } };
  return validateAuthOptions(options, { strategy: 'oauth2' });
}

/** A token endpoint that never answers. */
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('ProviderTimeLimit: how long a call to a provider may take', () => {
  it('is the validated providerTimeoutSeconds by default (5 unless configured)', () => {
    const limit = new ProviderTimeLimit();
    expect(providerCallMs(limit, configOf(base).oauth2!)).toBe(5000);
    expect(providerCallMs(limit, configOf(base, 1).oauth2!)).toBe(1000);
    expect(providerCallMs(limit, configOf(base, 30).oauth2!)).toBe(30_000);
  });

  it('fails closed: an override may only shorten the configured seconds', () => {
    const section = configOf(base, 2).oauth2!;
    const overridden = (ms: unknown) => Object.assign(new ProviderTimeLimit(), { callMs: () => ms as number });
    expect(providerCallMs(overridden(100), section)).toBe(100);
    expect(providerCallMs(overridden(2000), section)).toBe(2000);
    for (const ms of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2001, '100', undefined]) {
      expect(() => providerCallMs(overridden(ms), section)).toThrow('is not a time limit');
    }
    expect(() => new OAuth2Providers(configOf(base, 2), overridden(0))).toThrow('is not a time limit');
  });

  it('is what a client waits by default: a token endpoint that never answers fails the login after providerTimeoutSeconds (502)', async () => {
    const client = new OAuth2Providers(configOf(base, 1), new ProviderTimeLimit()).get('slow')!;
    const started = performance.now();
    const failure = await client.identify('a-code', { provider: 'slow', state: 's', codeVerifier: 'v'.repeat(43), redirect: '/' }).catch((error: unknown) => error);
    const waited = performance.now() - started;
    expect(failure).toBeInstanceOf(AuthError);
    expect(failure).toMatchObject({ code: 'OAUTH_PROVIDER_UNAVAILABLE' });
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(3000);
  });
});
