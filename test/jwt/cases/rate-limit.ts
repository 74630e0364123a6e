import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createJwtApp, type JwtApp, PASSWORD } from '../jwt-kit.js';

describe.each(BEHAVIOUR_ENGINES)('jwt endpoints under the rate limiter on %s', (engine) => {
  let t: JwtApp;
  beforeAll(async () => {
    t = await createJwtApp({ engine, options: { rateLimit: { max: 3, windowSeconds: 60 } } });
  });
  afterAll(() => t.close());

  it('signup, login and refresh are limited out of the box (docs/guides/rate-limiting.md); /me is not', async () => {
    const { access } = await t.account('limited@x.io');
    for (let i = 0; i < 2; i++) expect((await t.signup(`more-${i}@x.io`)).status).toBe(201);
    const signup = await t.signup('one-too-many@x.io');
    expect(signup.status).toBe(429);
    expect(signup.body.code).toBe('RATE_LIMITED');
    expect(Number(signup.headers['retry-after'])).toBeGreaterThan(0);

    for (let i = 0; i < 3; i++) expect((await t.refresh('C'.repeat(43))).status).toBe(401);
    expect((await t.refresh('C'.repeat(43))).status).toBe(429);

    for (let i = 0; i < 3; i++) expect((await t.login('limited@x.io', 'wrong password!')).status).toBe(401);
    expect((await t.login('limited@x.io', PASSWORD)).status).toBe(429);

    for (let i = 0; i < 5; i++) expect((await t.me(access)).status).toBe(200);
  });
});
