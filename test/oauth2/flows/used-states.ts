import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { AuthService, authMigrations } from '#svc/auth';
import { availableEngines, behaviourOnly, canUsePostgres, freshDatabase } from '../../support/engines.js';
import { describeNotRun } from '../../support/not-run.js';
import { BrowserAgent, type HostileOidcProvider } from '../../support/oauth/index.js';
import { TestClock } from '../../support/test-app.js';
import { CLIENT_ID, CLIENT_SECRET, createHostileOAuth2App, createSecondInstance, credentialCookieOf, errorOf, type OAuth2App, setCookies, writtenRows } from '../oauth2-kit.js';
import { undoThrough } from '../../support/migrations.js';

const ENGINES = await availableEngines();

/**
 * A callback's state is accepted once (RFC 6749 §10.12, RFC 9700 §4.7), even where the provider
 * would take its code again: the hostile provider here accepts a used code, so only svc's record of
 * used states (`oauth_used_states`) stands between a copied cookie and callback URL and a second login.
 */
describe.each(ENGINES)('used OAuth states on %s', (engine) => {
  // What the test provider does with a used code is no matter of the database: once, on SQLite.
  const behaviourIt = behaviourOnly(engine, it);
  let app: OAuth2App<HostileOidcProvider>;
  const clock = new TestClock();
  beforeAll(async () => {
    app = await createHostileOAuth2App({ engine, credential: 'session', clock });
    app.provider.setScript({ reusableCodes: true });
  });
  afterAll(() => app?.close());

  const usedStates = async () => Number((await app.dataSource.query('SELECT COUNT(*) AS n FROM oauth_used_states'))[0].n);

  async function expectReplayRefused(agent: BrowserAgent, callbackUrl: URL): Promise<void> {
    const before = await writtenRows(app);
    const tokenRequests = app.provider.records.token.length;
    const response = await agent.request(callbackUrl);
    expect(await errorOf(response)).toMatchObject({ status: 400, code: 'OAUTH_STATE_INVALID' });
    expect(credentialCookieOf(response)).toBeUndefined();
    expect(setCookies(response).svc_oauth_state.value).toBe('');
    expect(await writtenRows(app)).toBe(before);
    // Refused before the code exchange: the provider is not asked.
    expect(app.provider.records.token).toHaveLength(tokenRequests);
  }

  it('the same callback URL with a copy of its cookie, replayed after the login: 400 OAUTH_STATE_INVALID', async () => {
    const { agent, callbackUrl } = await app.walk();
    const copy = agent.clone();
    const first = await agent.request(callbackUrl);
    expect(first.status).toBe(302);
    expect(credentialCookieOf(first)).toBe('svc_session');
    await expectReplayRefused(copy, callbackUrl);
    await expectReplayRefused(copy.clone(), callbackUrl);
  });

  behaviourIt('the provider does accept the used code again: the copy of the cookie holds what it asks for', async () => {
    const { agent, callbackUrl } = await app.walk();
    const cookie = agent.jar.get(`${app.url}/auth/`, 'svc_oauth_state')!.value;
    const copy = agent.clone();
    expect((await agent.request(callbackUrl)).status).toBe(302);
    await expectReplayRefused(copy, callbackUrl);
    // Signed, not encrypted: whoever copied the cookie has the PKCE verifier, and this provider takes the code twice.
    const { cv } = JSON.parse(Buffer.from(cookie.split('.')[1], 'base64url').toString()) as { cv: string };
    const exchange = await fetch(app.provider.urls.token_endpoint, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: callbackUrl.searchParams.get('code')!, redirect_uri: `${app.url}${callbackUrl.pathname}`, code_verifier: cv }),
    });
    expect(exchange.status).toBe(200);
  });

  it('two concurrent presentations of one callback: exactly one logs in, the other is 400', async () => {
    const { agent, callbackUrl } = await app.walk();
    const copies = [agent, agent.clone(), agent.clone(), agent.clone()];
    const tokenRequests = app.provider.records.token.length;
    const sessions = (await app.rows('sessions')).length;
    const responses = await Promise.all(copies.map((copy) => copy.request(callbackUrl)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([302, 400, 400, 400]);
    for (const response of responses.filter((candidate) => candidate.status === 400)) expect((await errorOf(response)).code).toBe('OAUTH_STATE_INVALID');
    expect(app.provider.records.token).toHaveLength(tokenRequests + 1);
    expect(await app.rows('sessions')).toHaveLength(sessions + 1);
  });

  it('a state is used once whatever its callback met: after a provider failure, its replay is 400', async () => {
    app.provider.setScript({ reusableCodes: true, faults: { token: { kind: 'status', status: 500, times: 1 } } });
    const { agent, callbackUrl } = await app.walk();
    const copy = agent.clone();
    expect(await errorOf(await agent.request(callbackUrl))).toMatchObject({ status: 502, code: 'OAUTH_PROVIDER_UNAVAILABLE' });
    await expectReplayRefused(copy, callbackUrl);
    app.provider.setScript({ reusableCodes: true });
  });

  it('purgeExpired() deletes a used state once its state token has expired; the state stays refused', async () => {
    const { agent, callbackUrl } = await app.walk();
    const copy = agent.clone();
    expect((await agent.request(callbackUrl)).status).toBe(302);
    const rows = await usedStates();
    expect(rows).toBeGreaterThan(0);
    expect((await app.app.get(AuthService).purgeExpired()).oauthUsedStates).toBe(0);
    clock.advance(601_000);
    expect((await app.app.get(AuthService).purgeExpired()).oauthUsedStates).toBe(rows);
    expect(await usedStates()).toBe(0);
    await expectReplayRefused(copy, callbackUrl);
  });
});

if (await canUsePostgres()) {
  describe('used OAuth states across two instances on one PostgreSQL', () => {
    let first: OAuth2App<HostileOidcProvider>;
    let second: OAuth2App<HostileOidcProvider>;
    beforeAll(async () => {
      first = await createHostileOAuth2App({ engine: 'postgres', credential: 'session' });
      second = await createSecondInstance(first, { engine: 'postgres', credential: 'session' });
      first.provider.setScript({ reusableCodes: true });
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    /** The callback as the load balancer would hand it to the second instance. */
    const onSecond = (callbackUrl: URL) => new URL(`${callbackUrl.pathname}${callbackUrl.search}`, second.url);
    const replayOnSecond = (agent: BrowserAgent, callbackUrl: URL) => new BrowserAgent().request(onSecond(callbackUrl), { headers: { cookie: agent.jar.header(callbackUrl) } });

    it('a callback used on one instance is refused on the other (400), the provider not asked', async () => {
      const { agent, callbackUrl } = await first.walk();
      const cookie = agent.clone();
      expect((await agent.request(callbackUrl)).status).toBe(302);
      const tokenRequests = first.provider.records.token.length;
      expect(await errorOf(await replayOnSecond(cookie, callbackUrl))).toMatchObject({ status: 400, code: 'OAUTH_STATE_INVALID' });
      expect(first.provider.records.token).toHaveLength(tokenRequests);
    });

    it('one callback presented to both instances at once: exactly one logs in', async () => {
      const { agent, callbackUrl } = await first.walk();
      const responses = await Promise.all([agent.clone().request(callbackUrl), replayOnSecond(agent, callbackUrl)]);
      expect(responses.map((response) => response.status).sort()).toEqual([302, 400]);
    });
  });
} else {
  describeNotRun('used OAuth states across two instances on one PostgreSQL', 'PostgreSQL unreachable on 127.0.0.1:5432 (REQUIRE_POSTGRES=1 makes this a failure)');
}

describe.each(ENGINES)('the oauth_used_states migration on %s', (engine) => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await freshDatabase(engine);
    drop = database.drop;
    dataSource = await new DataSource({ ...database.options, migrations: authMigrations, migrationsRun: true, logging: false } as DataSourceOptions).initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await drop?.();
  });

  const tables = async () => {
    const runner = dataSource.createQueryRunner();
    try {
      return (await runner.getTables()).map((table) => table.name.replace(/^public\./, '')).filter((name) => !['migrations', 'typeorm_metadata'].includes(name)).sort();
    } finally {
      await runner.release();
    }
  };

  it('creates the table with its primary key and expiry index; down drops it and leaves the rest; up again restores it', async () => {
    const runner = dataSource.createQueryRunner();
    const table = await runner.getTable('oauth_used_states');
    await runner.release();
    expect(table?.primaryColumns.map((column) => column.name)).toEqual(['state_hash']);
    expect(table?.indices.map((index) => index.name)).toContain('ix_oauth_used_states_expires_at');
    const latest = await tables();
    // The later migrations go first, so what remains to compare is this one's own change.
    await undoThrough(dataSource, 'SvcEmailSkeleton1764000000200');
    const withIt = await tables();
    expect(withIt).toContain('oauth_used_states');

    await undoThrough(dataSource, 'SvcOAuthUsedStates1764000000100');
    expect(await tables()).toEqual(withIt.filter((name) => name !== 'oauth_used_states'));

    await dataSource.runMigrations();
    expect(await tables()).toEqual(latest);
  });
});
