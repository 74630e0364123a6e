import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { type AuthHooks, HookAbort, type OAuthLoginPayload, type OAuthUserInfo, type ProfileMapperContext } from '#svc/auth';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BrowserAgent, type Fault, type HostileOidcProvider, withShortProviderCalls } from '../../support/oauth/index.js';
import { createHostileOAuth2App, credentialCookieOf, errorOf, mapStandardProfile, type OAuth2App, setCookies, writtenRows } from '../oauth2-kit.js';

const MiB = 1024 * 1024;
/**
 * What a call to the provider may take in the cases that wait one out, instead of the configured second
 * (ProviderTimeLimit, whose default is providerTimeoutSeconds: its unit spec); a mapper twice that.
 */
const SHORT_CALL_MS = 100;
const MATRIX = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

/** How the test wants the mapper and the hook to behave. */
const behaviour: { mapper: 'standard' | 'throws' | 'invalid' | 'hangs' | 'github'; hook: 'pass' | 'abort' | 'crash' | 'rewrite' | 'smuggle' | 'overlong'; seen: OAuthLoginPayload[] } = {
  mapper: 'standard',
  hook: 'pass',
  seen: [],
};

/** The application's mapper: GitHub-style when asked (the verified primary email comes from /user/emails). */
async function mapper(profile: Record<string, unknown>, context: ProfileMapperContext): Promise<OAuthUserInfo> {
  switch (behaviour.mapper) {
    case 'throws':
      throw new TypeError('profile.login is undefined');
    case 'invalid':
      return { provider: context.provider, providerUserId: '', email: null, emailVerified: true, name: null, avatarUrl: null };
    case 'hangs':
      return new Promise(() => undefined);
    case 'github': {
      const emails = (await context.fetchJson(`${new URL(String(profile.api)).origin}/user/emails`)) as { email: string; verified: boolean; primary: boolean }[];
      const primary = emails.find((entry) => entry.primary && entry.verified);
      return { provider: context.provider, providerUserId: String(profile.id), email: primary?.email ?? null, emailVerified: primary !== undefined, name: String(profile.login), avatarUrl: null };
    }
    default:
      return mapStandardProfile(profile, context);
  }
}

@Injectable()
class Hooks implements AuthHooks {
  beforeOAuthLogin(payload: OAuthLoginPayload): OAuthLoginPayload {
    behaviour.seen.push(payload);
    if (behaviour.hook === 'abort') throw new HookAbort('Not from this provider');
    if (behaviour.hook === 'crash') throw new Error('hook bug');
    if (behaviour.hook === 'rewrite') return { ...payload, userInfo: { ...payload.userInfo, email: null } };
    if (behaviour.hook === 'smuggle') return { ...payload, userInfo: { ...payload.userInfo, isAdmin: true } as OAuthLoginPayload['userInfo'] };
    if (behaviour.hook === 'overlong') return { ...payload, userInfo: { ...payload.userInfo, name: 'h'.repeat(1025) } };
    return payload;
  }
}

/**
 * A provider that is down, slow or answers garbage, a mapper that fails, a hook that refuses: every
 * case fails closed with its code, writes nothing and sets no credential.
 */
describe.each(MATRIX)('oauth2 against a failing provider on %s with the %s credential', (engine, credential) => {
  let app: OAuth2App<HostileOidcProvider>;
  const logger = new CapturingLogger();
  beforeAll(async () => {
    app = await createHostileOAuth2App({ engine, credential, hooks: Hooks, logger, provider: { mapProfileToUser: mapper }, oauth2: { providerTimeoutSeconds: 1 } });
  });
  afterAll(() => app?.close());
  afterEach(() => {
    behaviour.mapper = 'standard';
    behaviour.hook = 'pass';
    behaviour.seen.length = 0;
    app.provider.reset();
  });

  async function expectFailedLogin(status: number, code: string): Promise<Response> {
    const before = await writtenRows(app);
    const { response } = await app.signIn();
    expect(await errorOf(response)).toMatchObject({ status, code });
    expect(credentialCookieOf(response)).toBeUndefined();
    expect(setCookies(response).svc_oauth_state.value).toBe('');
    expect(await writtenRows(app)).toBe(before);
    return response;
  }

  it('logs in against the same provider when nothing goes wrong', async () => {
    const { response } = await app.signIn();
    expect(response.status).toBe(302);
    expect(credentialCookieOf(response)).toBe(credential === 'session' ? 'svc_session' : 'svc_refresh');
  });

  it('a provider that went down before the callback: 502 OAUTH_PROVIDER_UNAVAILABLE', async () => {
    const { agent, callbackUrl } = await app.walk();
    await app.provider.stop();
    try {
      const before = await writtenRows(app);
      const response = await agent.request(callbackUrl);
      expect(await errorOf(response)).toMatchObject({ status: 502, code: 'OAUTH_PROVIDER_UNAVAILABLE' });
      expect(await writtenRows(app)).toBe(before);
    } finally {
      await app.provider.start();
    }
  });

  it.each<[string, Partial<Record<'token' | 'userinfo', Fault>>]>([
    ['a token endpoint slower than providerTimeoutSeconds', { token: { kind: 'delay', ms: 3000 } }],
    ['a token endpoint answering 500', { token: { kind: 'status', status: 500 } }],
    ['a token endpoint answering HTML', { token: { kind: 'not-json' } }],
    ['a token endpoint answering HTML labelled JSON', { token: { kind: 'not-json', contentType: 'application/json' } }],
    ['a token endpoint answering JSON of the wrong shape', { token: { kind: 'json', body: { token: 'x' } } }],
    ['a token endpoint resetting the connection', { token: { kind: 'reset' } }],
    ['a userinfo endpoint answering 500', { userinfo: { kind: 'status', status: 500 } }],
    ['a userinfo endpoint answering HTML', { userinfo: { kind: 'not-json' } }],
    ['a userinfo endpoint answering an array', { userinfo: { kind: 'json', body: [1, 2] } }],
    ['a userinfo endpoint that never answers', { userinfo: { kind: 'hang' } }],
  ])('%s: 502 OAUTH_PROVIDER_UNAVAILABLE', async (_case, faults) => {
    app.provider.setScript({ faults });
    const waitsOut = faults.token?.kind === 'delay' || faults.userinfo?.kind === 'hang';
    if (waitsOut) await withShortProviderCalls(app.app, SHORT_CALL_MS, () => expectFailedLogin(502, 'OAUTH_PROVIDER_UNAVAILABLE'));
    else await expectFailedLogin(502, 'OAUTH_PROVIDER_UNAVAILABLE');
  });

  it.each<[string, Partial<Record<'token' | 'userinfo' | 'resource', Fault>>]>([
    ['a token answer of 2 MiB, declared', { token: { kind: 'oversized', bytes: 2 * MiB } }],
    ['a token answer of 2 MiB, chunked', { token: { kind: 'oversized', bytes: 2 * MiB, declareLength: false } }],
    ['a userinfo answer of 2 MiB, declared', { userinfo: { kind: 'oversized', bytes: 2 * MiB } }],
    ['a userinfo answer of 2 MiB, chunked', { userinfo: { kind: 'oversized', bytes: 2 * MiB, declareLength: false } }],
    ['a resource of 2 MiB that the mapper fetches', { resource: { kind: 'oversized', bytes: 2 * MiB, declareLength: false } }],
  ])('%s: 502 OAUTH_PROVIDER_UNAVAILABLE, the answer not read to its end', async (_case, faults) => {
    if (faults.resource) {
      behaviour.mapper = 'github';
      app.provider.setScript({ faults, userinfo: () => ({ id: 77, login: 'big', api: app.provider.issuer }), resources: { '/user/emails': [{ email: 'big@x.io', verified: true, primary: true }] } });
    } else {
      app.provider.setScript({ faults });
    }
    logger.clear();
    await expectFailedLogin(502, 'OAUTH_PROVIDER_UNAVAILABLE');
    // The padding is a member no one reads: under the limit, the same answer logs in (see below).
    expect(logger.matching('warn', 'answer over 1 MiB, not read further')).toHaveLength(1);
  });

  it('an answer just under 1 MiB is read as usual', async () => {
    app.provider.setScript({ faults: { userinfo: { kind: 'oversized', bytes: MiB - 1024, declareLength: false } } });
    const { response } = await app.signIn();
    expect(response.status).toBe(302);
    expect(await app.provider.records.streams[0].outcome).toMatchObject({ completed: true });
  });

  it.each<[string, Record<string, unknown>]>([
    ['a name over 1,024 characters', { sub: 'long-name', email: 'long-name@x.io', email_verified: true, name: 'n'.repeat(1025) }],
    ['a name holding a NUL', { sub: 'nul-name', email: 'nul-name@x.io', email_verified: true, name: 'Mal\u0000lory' }],
    ['a name holding a lone surrogate', { sub: 'surrogate-name', email: 'surrogate@x.io', email_verified: true, name: 'Mal\ud800lory' }],
    ['an empty subject', { sub: '', email: 'empty-sub@x.io', email_verified: true }],
    ['a subject of 256 characters', { sub: 's'.repeat(256), email: 'long-sub@x.io', email_verified: true }],
  ])("a profile that breaks the user-info rules is the provider's fault: %s is 502 OAUTH_PROVIDER_UNAVAILABLE, never HOOK_FAILED", async (_case, identity) => {
    app.provider.setScript({ identity: identity as { sub: string } });
    logger.clear();
    await expectFailedLogin(502, 'OAUTH_PROVIDER_UNAVAILABLE');
    expect(behaviour.seen).toEqual([]);
    expect(logger.matching('warn', 'OAuth provider acme, mapProfileToUser')).toHaveLength(1);
    expect(logger.lines.map((line) => line.text).join('\n')).not.toMatch(/nnnnnnnn|ssssssss|Mal.?lory/);
  });

  it('a verified email that normalising turns into another address (fullwidth) is not trusted: 400 OAUTH_EMAIL_UNVERIFIED', async () => {
    app.provider.setScript({ identity: { sub: 'fullwidth', email: 'ＡＬＩＣＥ@x.io', email_verified: true } });
    await expectFailedLogin(400, 'OAUTH_EMAIL_UNVERIFIED');
  });

  it('a hook that returns an identity breaking the user-info rules is still 500 HOOK_FAILED', async () => {
    behaviour.hook = 'overlong';
    logger.clear();
    app.provider.setScript({ identity: { sub: 'hooked-5', email: 'hooked5@x.io', email_verified: true } });
    await expectFailedLogin(500, 'HOOK_FAILED');
    expect(logger.matching('error', 'before-hook beforeOAuthLogin returned an OAuthUserInfo that name must be')).toHaveLength(1);
  });

  it('a code the token endpoint refuses (invalid_grant): 401 OAUTH_CODE_REJECTED', async () => {
    app.provider.setScript({ faults: { token: { kind: 'json', status: 400, body: { error: 'invalid_grant', error_description: 'code expired' } } } });
    await expectFailedLogin(401, 'OAUTH_CODE_REJECTED');
  });

  it('a client the token endpoint refuses (invalid_client) is our misconfiguration: 502, logged', async () => {
    app.provider.setScript({ faults: { token: { kind: 'json', status: 401, body: { error: 'invalid_client' } } } });
    logger.clear();
    await expectFailedLogin(502, 'OAUTH_PROVIDER_UNAVAILABLE');
    expect(logger.lines.map((line) => line.text)).toContainEqual(expect.stringContaining('OAuth provider acme, token endpoint'));
  });

  it('a mapper that throws: 500 INTERNAL_ERROR, logged without stack', async () => {
    behaviour.mapper = 'throws';
    logger.clear();
    await expectFailedLogin(500, 'INTERNAL_ERROR');
    expect(logger.lines.map((line) => line.text)).toContainEqual(expect.stringContaining('TypeError: profile.login is undefined'));
    for (const line of logger.lines) expect(line.text).not.toMatch(/\n\s+at /);
  });

  it('a mapper that returns an invalid OAuthUserInfo, or never answers: 502', async () => {
    behaviour.mapper = 'invalid';
    await expectFailedLogin(502, 'OAUTH_PROVIDER_UNAVAILABLE');
    behaviour.mapper = 'hangs';
    await withShortProviderCalls(app.app, SHORT_CALL_MS, () => expectFailedLogin(502, 'OAUTH_PROVIDER_UNAVAILABLE'));
  });

  it('a GitHub-style mapper calls /user/emails with the access token it was given', async () => {
    behaviour.mapper = 'github';
    app.provider.setScript({
      userinfo: () => ({ id: 4242, login: 'octo', api: app.provider.issuer }),
      resources: { '/user/emails': [{ email: 'octo-public@x.io', verified: false, primary: false }, { email: 'Octo@X.io', verified: true, primary: true }] },
    });
    const { response } = await app.signIn();
    expect(response.status).toBe(302);
    expect(app.provider.records.resource).toEqual([expect.objectContaining({ path: '/user/emails', accessTokenValid: true })]);
    expect(await app.rows('oauth_accounts')).toContainEqual(expect.objectContaining({ provider_user_id: '4242', email: 'octo@x.io' }));
  });

  it('beforeOAuthLogin sees the identity before anything is written; HookAbort stops the login (403)', async () => {
    behaviour.hook = 'abort';
    app.provider.setScript({ identity: { sub: 'hooked', email: 'hooked@x.io', email_verified: true } });
    await expectFailedLogin(403, 'HOOK_ABORTED');
    expect(behaviour.seen).toEqual([
      { provider: 'acme', userInfo: { provider: 'acme', providerUserId: 'hooked', email: 'hooked@x.io', emailVerified: true, name: null, avatarUrl: null } },
    ]);
  });

  it('a hook that crashes is 500 HOOK_FAILED; the identity it returns is checked again', async () => {
    behaviour.hook = 'crash';
    app.provider.setScript({ identity: { sub: 'hooked-2', email: 'hooked2@x.io', email_verified: true } });
    await expectFailedLogin(500, 'HOOK_FAILED');
    behaviour.hook = 'rewrite';
    app.provider.setScript({ identity: { sub: 'hooked-3', email: 'hooked3@x.io', email_verified: true } });
    await expectFailedLogin(400, 'OAUTH_EMAIL_MISSING');
    behaviour.hook = 'smuggle';
    logger.clear();
    app.provider.setScript({ identity: { sub: 'hooked-4', email: 'hooked4@x.io', email_verified: true } });
    await expectFailedLogin(500, 'HOOK_FAILED');
    expect(logger.matching('error', 'before-hook beforeOAuthLogin returned an OAuthUserInfo that has an unknown field "isAdmin"')).toHaveLength(1);
  });

  it('authenticates with client_secret_basic and PKCE; no token request repeats the secret in the body', async () => {
    await app.signIn();
    const [request] = app.provider.records.token;
    expect(request).toMatchObject({ clientAuthentication: 'client_secret_basic', clientSecretValid: true });
    expect(request.params).toMatchObject({ grant_type: 'authorization_code', code_verifier: expect.any(String) });
    expect(app.provider.lastAuthorization()!.query).toMatchObject({ code_challenge_method: 'S256', code_challenge: expect.any(String) });
  });
});

describe('oauth2 provider entries: client_secret_post and pkce: false', () => {
  let app: OAuth2App<HostileOidcProvider>;
  beforeAll(async () => {
    app = await createHostileOAuth2App({ engine: 'sqlite', credential: 'session', tokenEndpointAuthMethod: 'client_secret_post', provider: { pkce: false } });
  });
  afterAll(() => app?.close());

  it('sends the secret in the body and no PKCE parameter', async () => {
    const { response } = await app.signIn(undefined, new BrowserAgent());
    expect(response.status).toBe(302);
    const [request] = app.provider.records.token;
    expect(request).toMatchObject({ clientAuthentication: 'client_secret_post', clientSecretValid: true });
    expect(request.params.code_verifier).toBeUndefined();
    expect(app.provider.lastAuthorization()!.query.code_challenge).toBeUndefined();
  });
});

describe('oauth2 against a provider streaming a 64 MiB userinfo', () => {
  let app: OAuth2App<HostileOidcProvider>;
  beforeAll(async () => {
    app = await createHostileOAuth2App({ engine: 'sqlite', credential: 'session' });
  });
  afterAll(() => app?.close());

  it('closes the connection after about 1 MiB: 502, and the provider could not hand over more than a few MiB', async () => {
    app.provider.setScript({ faults: { userinfo: { kind: 'oversized', bytes: 64 * MiB, declareLength: false } } });
    const { response } = await app.signIn();
    expect(await errorOf(response)).toMatchObject({ status: 502, code: 'OAUTH_PROVIDER_UNAVAILABLE' });
    // The provider writes only as fast as the app reads: what it handed over bounds what the app held.
    const { written, completed } = await app.provider.records.streams[0].outcome;
    expect(completed).toBe(false);
    expect(written).toBeLessThan(16 * MiB);
  });
});
