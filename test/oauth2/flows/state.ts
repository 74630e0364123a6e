import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BrowserAgent } from '../../support/oauth/index.js';
import { TestClock } from '../../support/test-app.js';
import { createOAuth2App, credentialCookieOf, errorOf, type OAuth2App, PROVIDER, setCookies, writtenRows } from '../oauth2-kit.js';

const MATRIX = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

/**
 * The state cookie binds a callback to the browser, the provider and the moment that started the
 * login (RFC 6749 §10.12, RFC 9700 §4.7); PKCE binds the code to it (RFC 7636). Every way of
 * presenting a callback that this login did not produce is refused, with nothing written.
 */
describe.each(MATRIX)('oauth2 state, PKCE and redirects on %s with the %s credential', (engine, credential) => {
  let app: OAuth2App;
  const clock = new TestClock();
  beforeAll(async () => {
    app = await createOAuth2App({ engine, credential, clock });
  });
  afterAll(() => app?.close());

  /** Presents `callback` with `agent` and expects the refusal, no credential, the state cookie cleared and no row written. */
  async function expectRefused(agent: BrowserAgent, callback: URL, status: number, code: string): Promise<void> {
    const before = await writtenRows(app);
    const response = await agent.request(callback);
    expect(await errorOf(response)).toMatchObject({ status, code });
    expect(credentialCookieOf(response)).toBeUndefined();
    expect(setCookies(response).svc_oauth_state?.value).toBe('');
    expect(await writtenRows(app)).toBe(before);
  }

  function stateCookieOf(agent: BrowserAgent): string {
    return agent.jar.get(`${app.url}/auth/`, 'svc_oauth_state')!.value;
  }

  it('no state cookie (the callback in another browser): 400 OAUTH_STATE_INVALID', async () => {
    const { callbackUrl } = await app.walk('alice');
    await expectRefused(new BrowserAgent(), callbackUrl, 400, 'OAUTH_STATE_INVALID');
  });

  it('a state parameter that is not the cookie\'s, missing or given twice: 400', async () => {
    for (const tamper of [(url: URL) => url.searchParams.set('state', 'forged-state-value'), (url: URL) => url.searchParams.delete('state'), (url: URL) => url.searchParams.append('state', 'x')]) {
      const { agent, callbackUrl } = await app.walk('alice');
      tamper(callbackUrl);
      await expectRefused(agent, callbackUrl, 400, 'OAUTH_STATE_INVALID');
    }
  });

  it('a state cookie with a bad signature, or another alg: 400', async () => {
    const { agent, callbackUrl } = await app.walk('alice');
    const [header, payload, signature] = stateCookieOf(agent).split('.');
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    agent.jar.set(`${app.url}/auth/`, 'svc_oauth_state', flipped, { path: '/auth' });
    await expectRefused(agent, callbackUrl, 400, 'OAUTH_STATE_INVALID');

    const second = await app.walk('alice');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'svc-oauth-state+jwt' })).toString('base64url')}.${stateCookieOf(second.agent).split('.')[1]}.`;
    second.agent.jar.set(`${app.url}/auth/`, 'svc_oauth_state', unsigned, { path: '/auth' });
    await expectRefused(second.agent, second.callbackUrl, 400, 'OAUTH_STATE_INVALID');
  });

  it('an expired state (stateTtlSeconds, 10 minutes by default): 400', async () => {
    const { agent, callbackUrl } = await app.walk('alice');
    clock.advance(601_000);
    await expectRefused(agent, callbackUrl, 400, 'OAUTH_STATE_INVALID');
  });

  it('a replayed callback: the cookie is gone (400); with a stolen copy of it, the state is used already (400), the provider not asked', async () => {
    const { agent, callbackUrl } = await app.walk('alice');
    const stolen = agent.clone();
    expect((await agent.request(callbackUrl)).status).toBe(302);
    const tokenRequests = app.provider.tokenRequests.length;
    await expectRefused(agent, callbackUrl, 400, 'OAUTH_STATE_INVALID');
    await expectRefused(stolen, callbackUrl, 400, 'OAUTH_STATE_INVALID');
    expect(app.provider.tokenRequests).toHaveLength(tokenRequests);
  });

  it("another provider's callback: the state is bound to the provider that started the login (400)", async () => {
    const { agent, callbackUrl } = await app.walk('alice');
    callbackUrl.pathname = callbackUrl.pathname.replace(`/oauth2/${PROVIDER}/`, '/oauth2/other/');
    await expectRefused(agent, callbackUrl, 400, 'OAUTH_STATE_INVALID');
  });

  it("a code injected into another browser's login: its PKCE verifier does not match (401 OAUTH_CODE_REJECTED)", async () => {
    const victim = await app.walk('alice');
    const attacker = await app.walk('mallory');
    // The attacker's code, presented with the victim's state and cookie (so the state check passes).
    const injected = new URL(victim.callbackUrl);
    injected.searchParams.set('code', attacker.callbackUrl.searchParams.get('code')!);
    await expectRefused(victim.agent, injected, 401, 'OAUTH_CODE_REJECTED');
    expect(app.provider.tokenRequests.at(-1)).toMatchObject({ codeVerifier: true, status: 400 });
  });

  it('an authorization response from another issuer (RFC 9207 iss): 400', async () => {
    const { agent, callbackUrl } = await app.walk('alice');
    callbackUrl.searchParams.set('iss', 'https://evil.example');
    await expectRefused(agent, callbackUrl, 400, 'OAUTH_STATE_INVALID');
  });

  it('the provider answering error=access_denied: 400 OAUTH_PROVIDER_ERROR', async () => {
    const agent = new BrowserAgent();
    const { callbackUrl } = await agent.walkToCallback(app.loginUrl(), { app: app.url, login: 'alice', interaction: 'cancel' });
    expect(callbackUrl.searchParams.get('error')).toBe('access_denied');
    await expectRefused(agent, callbackUrl, 400, 'OAUTH_PROVIDER_ERROR');
  });

  it.each([
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    '/%2F%2Fevil.example',
    '/%2f%2fevil.example',
    '/%5Cevil.example',
    '/%5c%5cevil.example',
    '%2F%2Fevil.example',
    'https://evil.example/',
    'http:/evil.example',
    'javascript:alert(1)',
    'evil.example',
    '/\tevil',
    '/%09/evil.example',
    '/.//evil.example',
    '/a/..//evil.example',
    '/%2e//evil.example',
    '',
  ])('refuses ?redirect=%j with 400 INVALID_REDIRECT before anything else', async (redirect) => {
    const response = await new BrowserAgent().request(app.loginUrl(`?redirect=${encodeURIComponent(redirect)}`));
    expect(await errorOf(response)).toMatchObject({ status: 400, code: 'INVALID_REDIRECT' });
    expect(setCookies(response).svc_oauth_state).toBeUndefined();
  });

  it('refuses a redirect given twice', async () => {
    const response = await new BrowserAgent().request(app.loginUrl('?redirect=/a&redirect=/b'));
    expect(await errorOf(response)).toMatchObject({ status: 400, code: 'INVALID_REDIRECT' });
  });

  it('an unknown provider: 404 OAUTH_PROVIDER_UNKNOWN at login and callback', async () => {
    expect(await errorOf(await new BrowserAgent().request(app.loginUrl('', 'nope')))).toMatchObject({ status: 404, code: 'OAUTH_PROVIDER_UNKNOWN' });
    const { agent, callbackUrl } = await app.walk('alice');
    callbackUrl.pathname = '/auth/oauth2/nope/callback';
    await expectRefused(agent, callbackUrl, 404, 'OAUTH_PROVIDER_UNKNOWN');
  });
});
