import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BrowserAgent } from '../../support/oauth/index.js';
import { createOAuth2App, errorOf, type OAuth2App } from '../oauth2-kit.js';

/** With a rateLimit section the OAuth login and callback routes are limited like the password routes. */
describe('oauth2 routes under the rate limiter', () => {
  let app: OAuth2App;
  beforeAll(async () => {
    app = await createOAuth2App({ engine: 'sqlite', credential: 'session', options: { rateLimit: { max: 2, windowSeconds: 60 } } });
  });
  afterAll(() => app?.close());

  it('counts GET /oauth2/<provider>/login and /callback per client address', async () => {
    const agent = new BrowserAgent();
    expect((await agent.request(app.loginUrl())).status).toBe(302);
    expect((await agent.request(app.loginUrl('', 'other'))).status).toBe(302);
    const third = await agent.request(app.loginUrl());
    expect(await errorOf(third)).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);

    const callback = `${app.url}/auth/oauth2/acme/callback?code=x&state=y`;
    for (const expected of [400, 400, 429]) expect((await agent.request(callback)).status).toBe(expected);
  });
});
