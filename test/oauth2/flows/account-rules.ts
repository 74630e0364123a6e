import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuthHooks, OAuthLoginPayload } from '#svc/auth';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { BrowserAgent } from '../../support/oauth/index.js';
import { createOAuth2App, credentialCookieOf, errorOf, type OAuth2App, setCookies } from '../oauth2-kit.js';

const ENGINES = await availableEngines();
const MATRIX = ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

/** Holds every `beforeOAuthLogin` of the accounts in `held` until `count` of them have arrived, then lets them all go at once. */
@Injectable()
class Barrier implements AuthHooks {
  static held = new Set<string>();
  static count = 2;
  private waiting: (() => void)[] = [];

  async beforeOAuthLogin(payload: OAuthLoginPayload): Promise<OAuthLoginPayload> {
    if (!Barrier.held.has(payload.userInfo.providerUserId)) return payload;
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (this.waiting.length >= Barrier.count) for (const release of this.waiting.splice(0)) release();
    });
    return payload;
  }
}

/** The account rules (docs/guides/oauth2.md): fail closed, never take an account over by email. */
describe.each(MATRIX)('oauth2 account rules on %s with the %s credential', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let app: OAuth2App;
  beforeAll(async () => {
    app = await createOAuth2App({ engine, credential, hooks: Barrier });
  });
  afterAll(() => app?.close());

  const parameter = (i: number) => app.dataSource.driver.createParameter(`p${i}`, i);

  /** The callback's answer refuses with `status`/`code`; nothing of the login was written and no credential set. */
  async function expectRefused(login: string, status: number, code: string): Promise<void> {
    const before = { users: await app.rows('users'), links: await app.rows('oauth_accounts'), sessions: await app.rows('sessions'), refresh: await app.rows('refresh_tokens') };
    const { response } = await app.signIn(login);
    expect(credentialCookieOf(response)).toBeUndefined();
    expect(setCookies(response).svc_oauth_state.value).toBe('');
    expect(await errorOf(response)).toMatchObject({ status, code });
    expect({ users: await app.rows('users'), links: await app.rows('oauth_accounts'), sessions: await app.rows('sessions'), refresh: await app.rows('refresh_tokens') }).toEqual(before);
  }

  behaviourIt('an email a user already holds, with no link to this identity, is 409 OAUTH_ACCOUNT_NOT_LINKED (no takeover)', async () => {
    await app.dataSource.query(`INSERT INTO users (id, email, password_hash, is_active) VALUES (${parameter(0)}, ${parameter(1)}, ${parameter(2)}, ${parameter(3)})`, [
      randomUUID(),
      'bob@x.io',
      '$2b$10$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZa',
      true,
    ]);
    await expectRefused('bob', 409, 'OAUTH_ACCOUNT_NOT_LINKED');
  });

  behaviourIt('an email that is not verified creates no user: 400 OAUTH_EMAIL_UNVERIFIED', async () => {
    await expectRefused('carol', 400, 'OAUTH_EMAIL_UNVERIFIED');
  });

  behaviourIt('an identity without an email creates no user: 400 OAUTH_EMAIL_MISSING', async () => {
    await expectRefused('nobody-with-mail', 400, 'OAUTH_EMAIL_MISSING');
  });

  behaviourIt('stores the email normalised', async () => {
    expect((await app.signIn('dave')).response.status).toBe(302);
    expect((await app.rows('users')).map((user) => user.email)).toContain('dave@x.io');
  });

  behaviourIt('a linked user who is inactive is 403 USER_INACTIVE', async () => {
    expect((await app.signIn('erin')).response.status).toBe(302);
    await app.dataSource.query(`UPDATE users SET is_active = ${parameter(0)} WHERE email = ${parameter(1)}`, [false, 'erin@x.io']);
    await expectRefused('erin', 403, 'USER_INACTIVE');
  });

  it('a link whose user is gone (a broken foreign key) is 401 OAUTH_ACCOUNT_ORPHANED', async () => {
    expect((await app.signIn('frank')).response.status).toBe(302);
    const [{ id }] = await app.dataSource.query(`SELECT id FROM users WHERE email = 'frank@x.io'`);
    if (engine === 'postgres') {
      await app.dataSource.query('ALTER TABLE oauth_accounts DROP CONSTRAINT fk_oauth_accounts_user');
      await app.dataSource.query('ALTER TABLE sessions DROP CONSTRAINT fk_sessions_user');
      await app.dataSource.query('ALTER TABLE refresh_tokens DROP CONSTRAINT fk_refresh_tokens_user');
      await app.dataSource.query(`DELETE FROM users WHERE id = ${parameter(0)}`, [id]);
    } else {
      await app.dataSource.query('PRAGMA foreign_keys = OFF');
      await app.dataSource.query(`DELETE FROM users WHERE id = ${parameter(0)}`, [id]);
      await app.dataSource.query('PRAGMA foreign_keys = ON');
    }
    expect(await app.rows('oauth_accounts')).toContainEqual(expect.objectContaining({ user_id: id }));
    await expectRefused('frank', 401, 'OAUTH_ACCOUNT_ORPHANED');
  });

  it('two concurrent first logins of one identity create one user and both log in', async () => {
    for (const login of ['grace', 'heidi']) {
      Barrier.held.add(login);
      const walks = await Promise.all([app.walk(login), app.walk(login)]);
      const responses = await Promise.all(walks.map(({ agent, callbackUrl }) => agent.request(callbackUrl)));
      expect(responses.map((response) => response.status)).toEqual([302, 302]);
      expect(responses.map((response) => credentialCookieOf(response))).toEqual([expect.any(String), expect.any(String)]);
      const users = (await app.rows('users')).filter((user) => user.email === `${login}@x.io`);
      expect(users).toHaveLength(1);
      expect((await app.rows('oauth_accounts')).filter((link) => link.provider_user_id === login)).toEqual([expect.objectContaining({ user_id: users[0].id })]);
    }
  });

  behaviourIt('a linked identity logs in even when the provider now says its email is unverified', async () => {
    const agent = new BrowserAgent();
    expect((await app.signIn('alice', agent)).response.status).toBe(302);
    await app.provider.setAccount('alice', { email: 'alice@x.io', email_verified: false });
    expect((await app.signIn('alice', new BrowserAgent())).response.status).toBe(302);
    expect((await app.rows('users')).filter((user) => user.email === 'alice@x.io')).toHaveLength(1);
  });
});
