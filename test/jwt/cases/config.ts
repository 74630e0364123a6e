import { AuthConfigError, AuthModule, type JwtOptions } from '#svc/auth';
import { bootAuthModule } from '../../support/auth-module-app.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BASE_URL, cookiesOf, TEST_SECRET } from '../../support/test-app.js';
import { claimsOf, createJwtApp, DAY, headerOf, MINUTE, signWithTestSecret, tokensOf } from '../jwt-kit.js';

const withSecret = (jwt: Record<string, unknown>) => ({ secretKey: TEST_SECRET, ...jwt });
/** A timestamp column as read back: a Date on PostgreSQL, a UTC 'YYYY-MM-DD HH:MM:SS.SSS' on SQLite. */
const asDate = (value: unknown) => (value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T')}Z`));

/** Starts AuthModule with the jwt strategy, as an application would; resolves once it is up. */
function start(jwt: Partial<JwtOptions> | undefined): Promise<void> {
  return bootAuthModule(AuthModule.forRoot({ strategy: 'jwt', baseUrl: BASE_URL, jwt, password: { sendsResetMail: false } } as never));
}

describe('jwt configuration at startup (docs/decisions/0001-module-shape.md)', () => {
  it.each([
    [undefined, 'jwt', 'is required for the jwt strategy', undefined],
    [{}, 'jwt.secretKey', 'is required', undefined],
    [{ secretKey: 'Zr4p9WqL2vX8nT6yB1cM5kD7hF3' }, 'jwt.secretKey', 'must be at least 32 characters', undefined],
    [{ secretKey: '<SIGNING_SECRET>-<SIGNING_SECRET>-<SIGNING_SECRET>' }, 'jwt.secretKey', 'is a placeholder value; generate a random one (e.g. `openssl rand -base64 32`)', undefined],
    [{ secretKey: 'changeme'.repeat(4) }, 'jwt.secretKey', 'is a placeholder value; generate a random one (e.g. `openssl rand -base64 32`)', undefined],
    [withSecret({ algorithm: 'none' }), 'jwt.algorithm', 'must be one of HS256, HS384, HS512', 'none'],
    [withSecret({ algorithm: 'RS256' }), 'jwt.algorithm', 'must be one of HS256, HS384, HS512', 'RS256'],
    [withSecret({ algorithm: 'hs256' }), 'jwt.algorithm', 'must be one of HS256, HS384, HS512', 'hs256'],
    [withSecret({ accessTokenExpireMinutes: 0 }), 'jwt.accessTokenExpireMinutes', 'must be between 1 and 30', 0],
    [withSecret({ accessTokenExpireMinutes: 31 }), 'jwt.accessTokenExpireMinutes', 'must be between 1 and 30', 31],
    [withSecret({ accessTokenExpireMinutes: '10' }), 'jwt.accessTokenExpireMinutes', 'must be an integer', '10'],
    [withSecret({ refreshTokenExpireDays: 0 }), 'jwt.refreshTokenExpireDays', 'must be between 1 and 30', 0],
    [withSecret({ refreshTokenExpireDays: 31 }), 'jwt.refreshTokenExpireDays', 'must be between 1 and 30', 31],
    [withSecret({ refreshTokenExpireDays: 7.5 }), 'jwt.refreshTokenExpireDays', 'must be an integer', 7.5],
    [withSecret({ refreshReuseGraceSeconds: -1 }), 'jwt.refreshReuseGraceSeconds', 'must be between 0 and 60', -1],
    [withSecret({ refreshReuseGraceSeconds: 61 }), 'jwt.refreshReuseGraceSeconds', 'must be between 0 and 60', 61],
  ])('refuses %o: %s %s (quoting the value, never a secret)', async (jwt, field, rule, got) => {
    await expect(start(jwt as Partial<JwtOptions> | undefined)).rejects.toThrow(new AuthConfigError(field, rule, got));
  });

  it('accepts the bounds themselves', async () => {
    await start({ secretKey: TEST_SECRET, accessTokenExpireMinutes: 1, refreshTokenExpireDays: 1, refreshReuseGraceSeconds: 0 });
    await start({ secretKey: TEST_SECRET, accessTokenExpireMinutes: 30, refreshTokenExpireDays: 30, refreshReuseGraceSeconds: 60, algorithm: 'HS512' });
  });
});

describe.each(BEHAVIOUR_ENGINES)('jwt lifetimes and algorithm from config on %s', (engine) => {
  it('access 30 minutes, refresh 2 days, HS512: in the body, the cookie, the claims and the expiry checks', async () => {
    const t = await createJwtApp({ engine, jwt: { accessTokenExpireMinutes: 30, refreshTokenExpireDays: 2, algorithm: 'HS512' } });
    try {
      const response = await t.signup('config@x.io');
      expect(response.body.expires_in).toBe(1800);
      expect(cookiesOf(response).svc_refresh.attributes).toContain('Max-Age=172800');
      const { access, refresh } = tokensOf(response);
      expect(headerOf(access).alg).toBe('HS512');
      const claims = claimsOf(access);
      expect((claims.exp as number) - (claims.iat as number)).toBe(1800);
      const [row] = await t.dataSource.query('SELECT expires_at FROM refresh_tokens');
      expect(asDate(row.expires_at).getTime()).toBe(t.clock.now().getTime() + 2 * DAY);

      // An HS256 token with the right secret is refused by an HS512 deployment (RFC 8725 §3.1).
      expect((await t.me(signWithTestSecret(claims))).status).toBe(401);

      t.clock.advance(30 * MINUTE - 1000);
      expect((await t.me(access)).status).toBe(200);
      t.clock.advance(1000);
      expect((await t.me(access)).status).toBe(401);

      t.clock.advance(2 * DAY - 30 * MINUTE);
      expect((await t.refresh(refresh)).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
