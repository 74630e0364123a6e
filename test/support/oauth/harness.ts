import { jest } from '@jest/globals';
import { decodeProtectedHeader } from 'jose';
import * as client from 'openid-client';
import {
  BrowserAgent,
  CookieJar,
  type HostileOidcProvider,
  type HostileScript,
  type OidcProviderHarness,
  startHostileOidcProvider,
  startOidcProvider,
} from './index.js';
import { SampleRelyingParty } from './sample-relying-party.js';

/**
 * The harness's self-test: the real openid-client 6 (as the library will use it) driven through
 * each provider. Where it asserts what openid-client accepts or refuses, it records facts the
 * oauth2 and oidc strategies must build on.
 */

const SECRET = 'harness-client-secret-0123456789abcdef';
// Nothing listens on port 9 (discard): walks stop before requesting the callback.
const CALLBACK = 'http://127.0.0.1:9/callback';
const BASIC_CLIENT = { client_id: 'basic-client', client_secret: SECRET, redirect_uris: [CALLBACK] };
const POST_CLIENT = { ...BASIC_CLIENT, client_id: 'post-client', token_endpoint_auth_method: 'client_secret_post' as const };
const ACCOUNTS = {
  alice: { email: 'alice@example.io', email_verified: true, name: 'Alice' },
  bob: { email: 'bob@example.io', email_verified: true, name: 'Bob', emailOnlyInUserinfo: true },
};

interface Attempt {
  url: URL;
  verifier: string;
  state: string;
  nonce: string;
}

interface ClientChoice {
  auth?: 'basic' | 'post';
  /** openid-client checks id_token signatures only with enableNonRepudiationChecks. */
  verifySignatures?: boolean;
  metadata?: Partial<client.ClientMetadata>;
}

function discover(issuer: string, clientId: string, choice: ClientChoice = {}): Promise<client.Configuration> {
  const auth = choice.auth === 'post' ? client.ClientSecretPost(SECRET) : client.ClientSecretBasic(SECRET);
  const execute = [client.allowInsecureRequests, ...(choice.verifySignatures ? [client.enableNonRepudiationChecks] : [])];
  return client.discovery(new URL(issuer), clientId, choice.metadata ?? {}, auth, { execute, timeout: 0.5 });
}

async function authorizationRequest(config: client.Configuration, extra: Record<string, string | undefined> = {}): Promise<Attempt> {
  const attempt = { verifier: client.randomPKCECodeVerifier(), state: client.randomState(), nonce: client.randomNonce() };
  const params: Record<string, string> = {
    redirect_uri: CALLBACK,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(attempt.verifier),
    code_challenge_method: 'S256',
    state: attempt.state,
    nonce: attempt.nonce,
  };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete params[key];
    else params[key] = value;
  }
  return { ...attempt, url: client.buildAuthorizationUrl(config, params) };
}

function codeGrant(config: client.Configuration, callbackUrl: URL, attempt: Attempt) {
  return client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: attempt.verifier,
    expectedState: attempt.state,
    expectedNonce: attempt.nonce,
    idTokenExpected: true,
  });
}

/** One whole login: authorization request, the provider's forms if shown, code exchange. */
async function login(config: client.Configuration, agent: BrowserAgent, loginName?: string) {
  const attempt = await authorizationRequest(config);
  const { callbackUrl } = await agent.walkToCallback(attempt.url, { app: CALLBACK, login: loginName });
  return codeGrant(config, callbackUrl, attempt);
}

/** What openid-client made of an attempt: 'accepted', or the error's code. */
function outcome(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'accepted',
    (error: { code?: string; error?: string; name: string }) => error.error ?? error.code ?? error.name,
  );
}

const kidOf = (idToken: string | undefined) => decodeProtectedHeader(idToken!).kid;

/**
 * Runs `work` with Date (and only Date) moved ahead: openid-client's JWKS cache age and both
 * sides' token times follow it, timers and sockets keep real time. No sleeping.
 */
async function withDateAhead<T>(ms: number, work: () => Promise<T>): Promise<T> {
  jest.useFakeTimers({
    now: Date.now() + ms,
    doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
  });
  try {
    return await work();
  } finally {
    jest.useRealTimers();
  }
}

describe('oidc-provider 9 through openid-client 6', () => {
  let op: OidcProviderHarness;
  beforeAll(async () => {
    op = await startOidcProvider({ clients: [BASIC_CLIENT, POST_CLIENT], accounts: ACCOUNTS });
  });
  afterAll(() => op.close());

  it('logs in through the real login and consent forms with PKCE, state, nonce and the RFC 9207 iss', async () => {
    const config = await discover(op.issuer, BASIC_CLIENT.client_id);
    const agent = new BrowserAgent();
    const attempt = await authorizationRequest(config);
    const { callbackUrl, hops } = await agent.walkToCallback(attempt.url, { app: CALLBACK, login: 'alice' });

    expect(hops.filter((hop) => hop.method === 'POST').map((hop) => new URL(hop.url).pathname)).toEqual([
      expect.stringMatching(/^\/interaction\//), // login form
      expect.stringMatching(/^\/interaction\//), // consent form
    ]);
    expect(callbackUrl.searchParams.get('iss')).toBe(op.issuer);
    expect(config.serverMetadata().authorization_response_iss_parameter_supported).toBe(true);

    const tokens = await codeGrant(config, callbackUrl, attempt);
    expect(tokens.claims()).toMatchObject({ iss: op.issuer, aud: 'basic-client', sub: 'alice', nonce: attempt.nonce, email: 'alice@example.io', email_verified: true });
    expect(kidOf(tokens.id_token)).toBe(op.signingKeyId);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(await client.fetchUserInfo(config, tokens.access_token, 'alice')).toMatchObject({ sub: 'alice', email: 'alice@example.io', name: 'Alice' });

    // The provider remembers the browser and its consent: no form the second time.
    const again = await agent.walkToCallback((await authorizationRequest(config)).url, { app: CALLBACK });
    expect(again.hops.every((hop) => hop.method === 'GET')).toBe(true);
    // The code is single use; replaying it also revokes its grant (RFC 6749 §4.1.2).
    expect(await outcome(codeGrant(config, callbackUrl, attempt))).toBe('invalid_grant');
  });

  it('accepts only the token endpoint authentication method the client registered', async () => {
    const agent = new BrowserAgent();
    const post = await discover(op.issuer, POST_CLIENT.client_id, { auth: 'post' });
    expect((await login(post, agent, 'alice')).claims()?.aud).toBe('post-client');
    expect(op.tokenRequests.at(-1)).toMatchObject({ clientId: 'post-client', clientAuthentication: 'client_secret_post', codeVerifier: true, status: 200 });
    const basicInstead = await discover(op.issuer, POST_CLIENT.client_id, { auth: 'basic' });
    expect(await outcome(login(basicInstead, agent))).toBe('invalid_client');
    expect(op.tokenRequests.at(-1)).toMatchObject({ clientAuthentication: 'client_secret_basic', status: 401 });
  });

  it('keeps email out of the id_token of an emailOnlyInUserinfo account, and gives it in userinfo', async () => {
    const config = await discover(op.issuer, BASIC_CLIENT.client_id);
    const tokens = await login(config, new BrowserAgent(), 'bob');
    expect(tokens.claims()).not.toHaveProperty('email');
    expect(tokens.claims()).not.toHaveProperty('email_verified');
    expect(await client.fetchUserInfo(config, tokens.access_token, 'bob')).toMatchObject({ email: 'bob@example.io', email_verified: true });
  });

  it('requires PKCE and refuses a verifier that does not match; a cancelled login is access_denied', async () => {
    const config = await discover(op.issuer, BASIC_CLIENT.client_id);
    const agent = new BrowserAgent();
    const withoutPkce = await authorizationRequest(config, { code_challenge: undefined, code_challenge_method: undefined });
    const refused = await agent.walkToCallback(withoutPkce.url, { app: CALLBACK, login: 'alice' });
    expect(Object.fromEntries(refused.callbackUrl.searchParams)).toMatchObject({ error: 'invalid_request', state: withoutPkce.state, iss: op.issuer });

    const attempt = await authorizationRequest(config);
    const { callbackUrl } = await agent.walkToCallback(attempt.url, { app: CALLBACK, login: 'alice' });
    expect(await outcome(codeGrant(config, callbackUrl, { ...attempt, verifier: client.randomPKCECodeVerifier() }))).toBe('invalid_grant');

    const cancelled = await new BrowserAgent().walkToCallback((await authorizationRequest(config)).url, { app: CALLBACK, interaction: 'cancel' });
    expect(cancelled.callbackUrl.searchParams.get('error')).toBe('access_denied');
  });

  it('rotates its signing keys; openid-client refetches the JWKS for an unknown kid only once its copy is 60 s old', async () => {
    const config = await discover(op.issuer, BASIC_CLIENT.client_id, { verifySignatures: true });
    const agent = new BrowserAgent();
    const before = kidOf((await login(config, agent, 'alice')).id_token);
    await op.rotateKeys();
    expect(op.signingKeyId).not.toBe(before);
    expect(op.jwks().keys.map((key) => key.kid)).not.toContain(before);

    expect(await outcome(login(config, agent))).toBe('OAUTH_KEY_SELECTION_FAILED');
    const fresh = await discover(op.issuer, BASIC_CLIENT.client_id, { verifySignatures: true });
    expect(kidOf((await login(fresh, agent)).id_token)).toBe(op.signingKeyId);

    const later = await withDateAhead(61_000, () => login(config, agent));
    expect(kidOf(later.id_token)).toBe(op.signingKeyId);

    const current = op.signingKeyId;
    await op.rotateKeys({ keepPrevious: true });
    const served = (await (await fetch(op.urls.jwks_uri)).json()) as { keys: { kid: string }[] };
    expect(served.keys.map((key) => key.kid)).toEqual(op.jwks().keys.map((key) => key.kid));
    expect(served.keys).toHaveLength(6); // three key types, the new ones first
    expect(served.keys.map((key) => key.kid)).toContain(current);
  });

  it('stops and starts again on the same port, sessions kept', async () => {
    const config = await discover(op.issuer, BASIC_CLIENT.client_id);
    const agent = new BrowserAgent();
    await login(config, agent, 'alice');
    const port = op.port;
    await op.stop();
    expect(await outcome(discover(op.issuer, BASIC_CLIENT.client_id))).toBe('ClientError'); // fetch failed: ECONNREFUSED
    await op.start();
    expect(op.port).toBe(port);
    expect((await login(await discover(op.issuer, BASIC_CLIENT.client_id), agent)).claims()?.sub).toBe('alice');
  });

  it('drives a relying party end to end: callback response, its cookies, a tampered or foreign callback', async () => {
    const rp = await SampleRelyingParty.start();
    try {
      await op.setClient({ client_id: 'sample-rp', client_secret: SECRET, redirect_uris: [rp.redirectUri] });
      rp.config = await discover(op.issuer, 'sample-rp');
      const agent = new BrowserAgent();
      const { response, authorizationUrl, callbackUrl } = await agent.signIn(`${rp.origin}/login`, { app: rp.origin, login: 'alice' });
      expect(response.status).toBe(302);
      expect(authorizationUrl?.origin).toBe(op.issuer);
      expect(callbackUrl.pathname).toBe('/callback');
      expect(agent.jar.get(rp.origin, 'rp_flow')).toBeUndefined(); // deleted by Max-Age=0
      expect(agent.jar.get(rp.origin, 'rp_session')?.secure).toBe(true); // Secure kept on loopback http
      const me = await agent.request(`${rp.origin}/me`);
      expect(await me.json()).toMatchObject({ sub: 'alice', email: 'alice@example.io' });

      const reached = await agent.walkToCallback(`${rp.origin}/login`, { app: rp.origin });
      const fromStranger = await new BrowserAgent().request(reached.callbackUrl);
      expect(await fromStranger.json()).toEqual({ error: 'no_flow' });

      const retry = await agent.walkToCallback(`${rp.origin}/login`, { app: rp.origin });
      const tampered = new URL(retry.callbackUrl);
      tampered.searchParams.set('state', 'forged');
      expect(await (await agent.request(tampered)).json()).toEqual({ error: 'OAUTH_INVALID_RESPONSE' });
    } finally {
      await rp.close();
    }
  });
});

describe('oidc-provider 9 as a plain OAuth 2.0 server (explicit endpoints, no discovery)', () => {
  let op: OidcProviderHarness;
  beforeAll(async () => {
    op = await startOidcProvider({ clients: [BASIC_CLIENT], accounts: ACCOUNTS, plainOAuth2: true, pkce: 'optional' });
  });
  afterAll(() => op.close());

  it('answers without iss or id_token, and its userinfo endpoint answers JSON to the bearer token', async () => {
    const { issuer, authorization_endpoint, token_endpoint } = op.urls;
    const config = new client.Configuration({ issuer, authorization_endpoint, token_endpoint }, BASIC_CLIENT.client_id, SECRET, client.ClientSecretBasic(SECRET));
    client.allowInsecureRequests(config);
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'email profile', state }); // no PKCE: optional here
    const { callbackUrl } = await new BrowserAgent().walkToCallback(url, { app: CALLBACK, login: 'alice' });
    expect(callbackUrl.searchParams.has('iss')).toBe(false);

    const tokens = await client.authorizationCodeGrant(config, callbackUrl, { expectedState: state });
    expect(tokens.id_token).toBeUndefined();
    const profile = await client.fetchProtectedResource(config, tokens.access_token, new URL(op.urls.userinfo_endpoint), 'GET');
    expect(profile.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await profile.json()).toEqual({ sub: 'alice', email: 'alice@example.io', email_verified: true, name: 'Alice' });
  });
});

describe('hostile provider through openid-client 6', () => {
  let hostile: HostileOidcProvider;
  beforeAll(async () => {
    hostile = await startHostileOidcProvider({ clientId: BASIC_CLIENT.client_id, clientSecret: SECRET });
    // The foreign key is made on first use; made here, its RSA key generation cannot outlast a client timeout.
    await hostile.signIdToken({ signature: 'foreign-key' });
  });
  afterAll(() => hostile.close());
  beforeEach(() => hostile.reset());

  /** A client as the oidc strategy should configure it: RS256 pinned, signatures checked. */
  const strict: ClientChoice = { verifySignatures: true, metadata: { id_token_signed_response_alg: 'RS256' } };

  async function attempt(script: HostileScript, choice: ClientChoice = strict) {
    hostile.setScript(script);
    const config = await discover(hostile.issuer, BASIC_CLIENT.client_id, choice);
    return login(config, new BrowserAgent());
  }

  it('issues a valid id_token and records what the relying party sent', async () => {
    const config = await discover(hostile.issuer, BASIC_CLIENT.client_id, strict);
    const sent = await authorizationRequest(config);
    const { callbackUrl } = await new BrowserAgent().walkToCallback(sent.url, { app: CALLBACK });
    expect(callbackUrl.searchParams.get('iss')).toBe(hostile.issuer);
    const tokens = await codeGrant(config, callbackUrl, sent);
    expect(tokens.claims()).toMatchObject({ sub: 'hostile-subject-1', email: 'mallory@hostile.test', nonce: sent.nonce });

    const [authorization] = hostile.records.authorization;
    expect(authorization.query).toMatchObject({ state: sent.state, nonce: sent.nonce, code_challenge_method: 'S256', code_challenge: await client.calculatePKCECodeChallenge(sent.verifier) });
    const [token] = hostile.records.token;
    expect(token).toMatchObject({ clientAuthentication: 'client_secret_basic', clientId: 'basic-client', clientSecretValid: true });
    expect(token.params).toMatchObject({ grant_type: 'authorization_code', code_verifier: sent.verifier, redirect_uri: CALLBACK });
    expect(token.params).not.toHaveProperty('client_secret');
    expect(decodeProtectedHeader(await hostile.signIdToken()).kid).toBe(hostile.signingKeyId);

    await attempt({}, { ...strict, auth: 'post' });
    expect(hostile.records.token.at(-1)?.clientAuthentication).toBe('client_secret_post');
  });

  const now = () => Math.floor(Date.now() / 1000);
  it.each<{ name: string; script: HostileScript; refusal: string }>([
    { name: 'unsigned (alg none)', script: { idToken: { signature: 'none' } }, refusal: 'OAUTH_INVALID_RESPONSE' },
    { name: 'HS256 with the client secret', script: { idToken: { signature: 'client-secret' } }, refusal: 'OAUTH_INVALID_RESPONSE' },
    { name: 'a foreign key under the published kid', script: { idToken: { signature: 'foreign-key' } }, refusal: 'OAUTH_INVALID_RESPONSE' },
    { name: 'a foreign key under an unknown kid', script: { idToken: { signature: 'foreign-key', header: { kid: 'unknown' } } }, refusal: 'OAUTH_KEY_SELECTION_FAILED' },
    { name: 'another iss', script: { idToken: { claims: { iss: 'https://evil.example' } } }, refusal: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' },
    { name: 'another aud', script: { idToken: { claims: { aud: 'another-client' } } }, refusal: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' },
    { name: 'several audiences, no azp', script: { idToken: { claims: { aud: ['basic-client', 'another-client'] } } }, refusal: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' },
    { name: 'several audiences, azp of another', script: { idToken: { claims: { aud: ['basic-client', 'another-client'], azp: 'another-client' } } }, refusal: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' },
    { name: 'expired', script: { idToken: { claims: { exp: now() - 120 } } }, refusal: 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED' },
    { name: 'another nonce', script: { idToken: { claims: { nonce: 'replayed' } } }, refusal: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' },
    { name: 'no nonce', script: { idToken: { claims: { nonce: undefined } } }, refusal: 'OAUTH_INVALID_RESPONSE' },
    { name: 'no id_token at all', script: { idToken: 'omit' }, refusal: 'OAUTH_INVALID_RESPONSE' },
    { name: 'an authorization response iss of another issuer (RFC 9207)', script: { authorizationResponse: { iss: 'https://evil.example' } }, refusal: 'OAUTH_INVALID_RESPONSE' },
    { name: 'no authorization response iss although advertised', script: { authorizationResponse: { iss: undefined } }, refusal: 'OAUTH_INVALID_RESPONSE' },
    { name: 'a discovery document naming another issuer (mix-up)', script: { discovery: { issuer: 'https://evil.example' } }, refusal: 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' },
  ])('openid-client refuses an id_token or response with $name', async ({ script, refusal }) => {
    expect(await outcome(attempt(script))).toBe(refusal);
  });

  it.each<{ name: string; script: HostileScript; choice: ClientChoice }>([
    { name: 'a foreign-key signature when signatures are not checked (its default)', script: { idToken: { signature: 'foreign-key' } }, choice: {} },
    { name: 'alg none when discovery lists it, no alg pinned, signatures not checked', script: { idToken: { signature: 'none' }, discovery: { id_token_signing_alg_values_supported: ['RS256', 'none'] } }, choice: {} },
    { name: 'an iat one hour in the future', script: { idToken: { claims: { iat: now() + 3600 } } }, choice: strict },
    { name: 'several audiences with azp = client_id', script: { idToken: { claims: { aud: ['basic-client', 'another-client'], azp: 'basic-client' } } }, choice: strict },
  ])('openid-client accepts $name: the library must decide', async ({ script, choice }) => {
    expect(await outcome(attempt(script, choice))).toBe('accepted');
  });

  it('serves userinfo for an id_token without email, with a sub openid-client compares', async () => {
    hostile.setScript({ idToken: { claims: { email: undefined, email_verified: undefined } }, userinfo: { sub: 'someone-else' } });
    const config = await discover(hostile.issuer, BASIC_CLIENT.client_id, strict);
    const tokens = await login(config, new BrowserAgent());
    expect(tokens.claims()).not.toHaveProperty('email');
    expect(await outcome(client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub))).toBe('OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED');
    hostile.setScript({ userinfo: { email_verified: false } });
    expect(await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)).toMatchObject({ email: 'mallory@hostile.test', email_verified: false });
  });

  it.each<{ name: string; script: HostileScript; failure: string }>([
    { name: 'answers 500', script: { faults: { token: { kind: 'status', status: 500 } } }, failure: 'OAUTH_RESPONSE_IS_NOT_CONFORM' },
    { name: 'answers HTML', script: { faults: { token: { kind: 'not-json' } } }, failure: 'OAUTH_RESPONSE_IS_NOT_JSON' },
    { name: 'answers HTML labelled JSON', script: { faults: { token: { kind: 'not-json', contentType: 'application/json' } } }, failure: 'OAUTH_PARSE_ERROR' },
    { name: 'answers JSON of the wrong shape', script: { faults: { token: { kind: 'json', body: { access_token: 42 } } } }, failure: 'OAUTH_INVALID_RESPONSE' },
    { name: 'is slower than the client timeout', script: { faults: { token: { kind: 'delay', ms: 5_000 } } }, failure: 'OAUTH_TIMEOUT' },
    { name: 'resets the connection', script: { faults: { token: { kind: 'reset' } } }, failure: 'ClientError' },
  ])('a token endpoint that $name fails the login', async ({ script, failure }) => {
    expect(await outcome(attempt(script))).toBe(failure);
    expect(hostile.records.token).toHaveLength(1);
  });

  it('a fault with `times` passes: discovery fails once, then answers', async () => {
    hostile.setScript({ faults: { discovery: { kind: 'status', status: 503, times: 1 } } });
    expect(await outcome(discover(hostile.issuer, BASIC_CLIENT.client_id))).toBe('OAUTH_RESPONSE_IS_NOT_CONFORM');
    expect(await outcome(discover(hostile.issuer, BASIC_CLIENT.client_id))).toBe('accepted');
    expect(hostile.records.discovery).toBe(2);
  });
});

describe('hostile provider in plain OAuth 2.0 mode', () => {
  it('gives access and refresh tokens, a scripted profile and bearer-protected resources', async () => {
    const github = await startHostileOidcProvider({
      clientId: BASIC_CLIENT.client_id,
      clientSecret: SECRET,
      mode: 'oauth2',
      script: { userinfo: () => ({ id: 42, login: 'octocat', email: null }), resources: { '/user/emails': [{ email: 'octo@example.io', verified: true, primary: true }] } },
    });
    try {
      const { issuer, authorization_endpoint, token_endpoint } = github.urls;
      const config = new client.Configuration({ issuer, authorization_endpoint, token_endpoint }, BASIC_CLIENT.client_id, SECRET, client.ClientSecretBasic(SECRET));
      client.allowInsecureRequests(config);
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'read:user user:email', state });
      const { callbackUrl } = await new BrowserAgent().walkToCallback(url, { app: CALLBACK });
      expect(callbackUrl.searchParams.has('iss')).toBe(false);
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, { expectedState: state });
      expect(tokens.id_token).toBeUndefined();
      expect(tokens.refresh_token).toEqual(expect.any(String));

      const get = (path: string, token = tokens.access_token) => client.fetchProtectedResource(config, token, new URL(path, issuer), 'GET');
      expect(await (await get('/userinfo')).json()).toEqual({ id: 42, login: 'octocat', email: null });
      expect(await (await get('/user/emails')).json()).toEqual([{ email: 'octo@example.io', verified: true, primary: true }]);
      await expect(get('/userinfo', 'not-a-token')).rejects.toMatchObject({ code: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE' });
      expect((await client.refreshTokenGrant(config, tokens.refresh_token!)).access_token).not.toBe(tokens.access_token);
    } finally {
      await github.close();
    }
  });
});

describe('CookieJar', () => {
  const app = 'http://127.0.0.1:4000';

  it('keeps cookies per origin and path, deletes on Max-Age=0 or a past Expires, keeps Secure to secure origins', () => {
    const jar = new CookieJar();
    jar.store(`${app}/auth/login`, ['flow=1; Path=/auth; HttpOnly', 'session=2; Path=/', 'sticky=3', 'gone=4; Path=/']);
    // Longest path first (RFC 6265 §5.4); sticky's default path is the directory /auth.
    expect(jar.header(`${app}/auth/me`)).toBe('flow=1; sticky=3; session=2; gone=4');
    expect(jar.header(`${app}/authx`)).toBe('session=2; gone=4');
    expect(jar.header('http://127.0.0.1:4001/auth/me')).toBe(''); // another port, another origin
    jar.store(`${app}/auth/callback`, ['flow=; Path=/auth; Max-Age=0', 'gone=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
    expect(jar.list(app).map((cookie) => cookie.name).sort()).toEqual(['session', 'sticky']);

    jar.store('http://app.test/', ['plain=1', 'secure=2; Secure']); // RFC 6265bis: Secure needs a secure origin
    expect(jar.header('http://app.test/')).toBe('plain=1');
    jar.store(app, ['secure=2; Secure']); // loopback counts as secure, as in browsers
    expect(jar.get(app, 'secure')?.value).toBe('2');
  });
});
