import { AuthConfigError } from './auth-config.error.js';
import type { AuthOptions } from './auth-options.js';
import { randomBytes, randomInt } from 'node:crypto';
import { estimatedEntropyBits, estimatedGuessBits, isPlaceholderSecret } from './placeholder-secret.js';
import { validateAuthOptions } from './validate-auth-options.js';

const RANDOM = 'Zr4p9WqL2vX8nT6yB1cM5kD7hF3sJ0gA';
const base: AuthOptions = { baseUrl: 'https://app.test' };

describe('validateAuthOptions', () => {
  it('fills the defaults and freezes the result', () => {
    const config = validateAuthOptions({ ...base, jwt: { secretKey: RANDOM } }, { strategy: 'jwt' });
    expect(config.jwt).toEqual({ secretKey: RANDOM, algorithm: 'HS256', accessTokenExpireMinutes: 10, refreshTokenExpireDays: 7, refreshReuseGraceSeconds: 0, refreshFamilyTtlSeconds: 2592000 });
    expect(config.session).toEqual({ expireDays: 7, maxPerUser: 10, loginOnSignup: true, absoluteTtlSeconds: 2592000 });
    expect(config.cookie).toEqual({
      sessionName: 'svc_session',
      refreshName: 'svc_refresh',
      oauthStateName: 'svc_oauth_state',
      passkeyChallengeName: 'svc_passkey',
      mfaChallengeName: 'svc_mfa',
      secure: true,
      sameSite: 'lax',
      path: '/',
      domain: undefined,
    });
    expect(config.password).toEqual({ minLength: 8, maxLength: 72, bcryptCost: 12, resetTokenTtlMinutes: 60, resetPath: '/reset-password', sendsResetMail: true });
    expect(config.prefix).toBe('/auth');
    expect(config.trustedOrigins).toEqual(['https://app.test']);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.jwt)).toBe(true);
    expect(() => {
      (config.session as { expireDays: number }).expireDays = 99;
    }).toThrow(TypeError);
  });

  it.each([
    [{ secretKey: 'short-but-random-9f8e' }, 'jwt.secretKey must be at least 32 characters'],
    [{ secretKey: 'changeme'.repeat(5) }, 'jwt.secretKey is a placeholder value'],
    [{ secretKey: '<SIGNING_SECRET_GOES_HERE_PLEASE_XYZ>' }, 'jwt.secretKey is a placeholder value'],
    [{ secretKey: 'a'.repeat(48) }, 'jwt.secretKey is a placeholder value'],
    [{ secretKey: 'abc123'.repeat(8) }, 'jwt.secretKey is a placeholder value'],
    [{ secretKey: 'your-secret-key-0000000000000000000' }, 'jwt.secretKey is a placeholder value'],
    [{ secretKey: RANDOM, accessTokenExpireMinutes: 31 }, 'jwt.accessTokenExpireMinutes must be between 1 and 30'],
    [{ secretKey: RANDOM, accessTokenExpireMinutes: 0 }, 'jwt.accessTokenExpireMinutes must be between 1 and 30'],
    [{ secretKey: RANDOM, refreshTokenExpireDays: 31 }, 'jwt.refreshTokenExpireDays must be between 1 and 30'],
    [{ secretKey: RANDOM, refreshReuseGraceSeconds: 61 }, 'jwt.refreshReuseGraceSeconds must be between 0 and 60'],
    [{ secretKey: RANDOM, accessTokenExpireMinutes: 1.5 }, 'jwt.accessTokenExpireMinutes must be an integer'],
    [{ secretKey: RANDOM, algorithm: 'RS256' }, 'jwt.algorithm must be one of HS256, HS384, HS512'],
    [{ secretKey: RANDOM, refreshFamilyTtlSeconds: 3599 }, 'jwt.refreshFamilyTtlSeconds must be between 3600 and 31536000 (got 3599)'],
    [{ secretKey: RANDOM, refreshFamilyTtlSeconds: 31536001 }, 'jwt.refreshFamilyTtlSeconds must be between 3600 and 31536000 (got 31536001)'],
    [{ secretKey: RANDOM, refreshFamilyTtlSeconds: 86400.5 }, 'jwt.refreshFamilyTtlSeconds must be an integer'],
    [
      { secretKey: RANDOM, refreshFamilyTtlSeconds: 86400 },
      'jwt.refreshFamilyTtlSeconds must be at least the refresh token lifetime, jwt.refreshTokenExpireDays (604800 seconds) (got 86400)',
    ],
    [
      { secretKey: RANDOM, refreshTokenExpireDays: 30, refreshFamilyTtlSeconds: 2591999 },
      'jwt.refreshFamilyTtlSeconds must be at least the refresh token lifetime, jwt.refreshTokenExpireDays (2592000 seconds) (got 2591999)',
    ],
  ])('refuses jwt %o: %s', (jwt, message) => {
    expect(() => validateAuthOptions({ ...base, jwt: jwt as never }, { strategy: 'jwt' })).toThrow(message);
  });

  it('takes the absolute lifetimes within their bounds', () => {
    const jwt = validateAuthOptions({ ...base, jwt: { secretKey: RANDOM, refreshTokenExpireDays: 1, refreshFamilyTtlSeconds: 86400 } }, { strategy: 'jwt' });
    expect(jwt.jwt?.refreshFamilyTtlSeconds).toBe(86400);
    expect(validateAuthOptions({ ...base, session: { absoluteTtlSeconds: 3600 } }, { strategy: 'session' }).session.absoluteTtlSeconds).toBe(3600);
    expect(validateAuthOptions({ ...base, session: { absoluteTtlSeconds: 31536000 } }, { strategy: 'session' }).session.absoluteTtlSeconds).toBe(31536000);
    for (const absoluteTtlSeconds of [3599, 31536001, 0, -1]) {
      expect(() => validateAuthOptions({ ...base, session: { absoluteTtlSeconds } }, { strategy: 'session' })).toThrow(
        `session.absoluteTtlSeconds must be between 3600 and 31536000 (got ${absoluteTtlSeconds})`,
      );
    }
    expect(() => validateAuthOptions({ ...base, session: { absoluteTtlSeconds: '3600' as never } }, { strategy: 'session' })).toThrow('session.absoluteTtlSeconds must be an integer');
  });

  it('requires the jwt section for the jwt strategy and names the strategy rule', () => {
    expect(() => validateAuthOptions(base, { strategy: 'jwt' })).toThrow(new AuthConfigError('jwt', 'is required for the jwt strategy'));
    expect(() => validateAuthOptions(base, { strategy: 'ldap' as never })).toThrow('strategy must be one of session, jwt, oidc, oauth2');
  });

  it('needs a Redis client with the commands the limiter sends for the redis backend', () => {
    const message = 'rateLimit.redis is required for the redis backend (an ioredis Redis or Cluster client)';
    for (const redis of [undefined, {}, { evalsha: () => 0 }, 'redis://127.0.0.1:6379']) {
      expect(() => validateAuthOptions({ ...base, secret: RANDOM, rateLimit: { backend: 'redis', redis: redis as never } }, { strategy: 'session' })).toThrow(message);
    }
    const client = { evalsha: async () => 1, eval: async () => 1, ping: async () => 'PONG' };
    expect(validateAuthOptions({ ...base, secret: RANDOM, rateLimit: { backend: 'redis', redis: client } }, { strategy: 'session' }).rateLimit?.redis).toBe(client);
  });

  it('takes { url } for a Redis client svc opens and closes, and refuses a URL that is not redis:// or rediss:// without quoting it', () => {
    const withRedis = (redis: unknown) => validateAuthOptions({ ...base, secret: RANDOM, rateLimit: { backend: 'redis', redis: redis as never } }, { strategy: 'session' }).rateLimit?.redis;
    expect(withRedis({ url: 'redis://127.0.0.1:6379/2' })).toEqual({ url: 'redis://127.0.0.1:6379/2' });
    expect(withRedis({ url: 'rediss://:s3cret@cache.example:6380' })).toEqual({ url: 'rediss://:s3cret@cache.example:6380' });
    for (const url of [undefined, '', '127.0.0.1:6379', 'http://:s3cret@cache.example', 42]) {
      expect(() => withRedis({ url })).toThrow(new AuthConfigError('rateLimit.redis.url', 'must be a redis:// or rediss:// URL'));
    }
  });

  describe('rateLimit.redisKeyPrefix', () => {
    const redis = { evalsha: async () => 1, eval: async () => 1, ping: async () => 'PONG' };
    const withPrefix = (redisKeyPrefix: unknown, backend: 'redis' | 'memory' = 'redis') =>
      validateAuthOptions({ ...base, secret: RANDOM, rateLimit: { backend, redis, redisKeyPrefix: redisKeyPrefix as never } }, { strategy: 'session' }).rateLimit?.redisKeyPrefix;

    it('defaults to the prefix of earlier versions, so existing counters are kept', () => {
      expect(withPrefix(undefined)).toBe('svc:rate-limit:');
    });

    it.each(['billing:rl:', 'a', 'x'.repeat(64), '!#$%&()*+,-./:;<=>?@[]^_`|~'])('takes %j', (prefix) => {
      expect(withPrefix(prefix)).toBe(prefix);
    });

    it.each([
      ['', 'must be a non-empty string'],
      [42, 'must be a non-empty string'],
      [null, 'must be a non-empty string'],
      ['x'.repeat(65), 'must be at most 64 characters'],
      ['my app:', 'must be printable ASCII without spaces or control characters'],
      ['app:\t', 'must be printable ASCII without spaces or control characters'],
      ['app:\n', 'must be printable ASCII without spaces or control characters'],
      ['café:', 'must be printable ASCII without spaces or control characters'],
      ['{app}:', 'must not hold "{" or "}": Redis Cluster would read them as a hash tag and put every counter in one slot'],
      ['app{:', 'must not hold "{" or "}": Redis Cluster would read them as a hash tag and put every counter in one slot'],
      ['app}:', 'must not hold "{" or "}": Redis Cluster would read them as a hash tag and put every counter in one slot'],
    ])('refuses %j: %s', (prefix, rule) => {
      expect(() => withPrefix(prefix)).toThrow(new AuthConfigError('rateLimit.redisKeyPrefix', rule, prefix));
    });

    // As memoryMaxKeys with the redis backend: a backend's option is checked whatever the backend.
    it('is checked with the other backends too', () => {
      expect(withPrefix('billing:rl:', 'memory')).toBe('billing:rl:');
      expect(() => withPrefix('{billing}:', 'memory')).toThrow('rateLimit.redisKeyPrefix must not hold "{" or "}"');
    });
  });

  describe('rateLimit.accountCeiling', () => {
    const ceiling = (rateLimit: { max?: number; accountCeiling?: unknown }) =>
      validateAuthOptions({ ...base, rateLimit: rateLimit as never }, { strategy: 'session' }).rateLimit?.accountCeiling;

    it('defaults to 10 × max, and takes a value from max to 10000000', () => {
      expect(ceiling({})).toBe(100);
      expect(ceiling({ max: 3 })).toBe(30);
      expect(ceiling({ max: 1_000_000 })).toBe(10_000_000);
      expect(ceiling({ max: 3, accountCeiling: 3 })).toBe(3);
      expect(ceiling({ max: 3, accountCeiling: 10_000_000 })).toBe(10_000_000);
    });

    it.each([
      [{ max: 5, accountCeiling: 4 }, new AuthConfigError('rateLimit.accountCeiling', 'must be at least rateLimit.max (5)', 4)],
      [{ accountCeiling: 0 }, new AuthConfigError('rateLimit.accountCeiling', 'must be between 1 and 10000000', 0)],
      [{ accountCeiling: 10_000_001 }, new AuthConfigError('rateLimit.accountCeiling', 'must be between 1 and 10000000', 10_000_001)],
      [{ accountCeiling: 50.5 }, new AuthConfigError('rateLimit.accountCeiling', 'must be an integer', 50.5)],
      [{ accountCeiling: '50' }, new AuthConfigError('rateLimit.accountCeiling', 'must be an integer', '50')],
    ])('refuses %o', (rateLimit, error) => {
      expect(() => ceiling(rateLimit)).toThrow(error);
    });
  });

  describe('the key of the per-account counters', () => {
    const redis = { evalsha: async () => 1, eval: async () => 1, ping: async () => 'PONG' };
    const OTHER = 'kR9vT2mX7qL4wN8zB1cJ6hF3yP5sD0gE';

    it.each(['database', 'redis'] as const)("needs a secret to derive it from with the %s backend, shared by every instance", (backend) => {
      const error = new AuthConfigError(
        'secret',
        `is required with rateLimit.backend '${backend}': per-account counters are keyed by an HMAC of the email, and every instance must derive that key from one shared secret (or give jwt.secretKey or an OAuth secretKey)`,
      );
      expect(() => validateAuthOptions({ ...base, rateLimit: { backend, redis } }, { strategy: 'session' })).toThrow(error);
      expect(validateAuthOptions({ ...base, secret: RANDOM, rateLimit: { backend, redis } }, { strategy: 'session' }).rateLimit?.accountKey).toEqual(expect.any(String));
      expect(validateAuthOptions({ ...base, jwt: { secretKey: RANDOM }, rateLimit: { backend, redis } }, { strategy: 'jwt' }).rateLimit?.accountKey).toEqual(expect.any(String));
    });

    it('is left to the memory backend (a random key per process) when there is no secret', () => {
      const config = validateAuthOptions({ ...base, rateLimit: {} }, { strategy: 'session' });
      expect(config.rateLimit?.backend).toBe('memory');
      expect(config.rateLimit?.accountKey).toBeUndefined();
    });

    it('is derived: the same for the same secret, another for another secret, never the secret nor the jwt key', () => {
      const keyOf = (options: Partial<AuthOptions>, strategy: 'session' | 'jwt' = 'session') => validateAuthOptions({ ...base, ...options, rateLimit: {} }, { strategy });
      const fromSecret = keyOf({ secret: RANDOM });
      expect(fromSecret.rateLimit?.accountKey).toBe(keyOf({ secret: RANDOM }).rateLimit?.accountKey);
      expect(fromSecret.rateLimit?.accountKey).not.toBe(keyOf({ secret: OTHER }).rateLimit?.accountKey);
      expect(fromSecret.rateLimit?.accountKey).not.toBe(RANDOM);
      const jwt = keyOf({ secret: RANDOM, jwt: {} }, 'jwt');
      expect(jwt.rateLimit?.accountKey).toBe(fromSecret.rateLimit?.accountKey);
      expect(jwt.rateLimit?.accountKey).not.toBe(jwt.jwt?.secretKey);
      // Without the module's secret, the jwt section's own key is derived from.
      const fromJwtKey = keyOf({ jwt: { secretKey: OTHER } }, 'jwt');
      expect(fromJwtKey.rateLimit?.accountKey).toEqual(expect.any(String));
      expect(fromJwtKey.rateLimit?.accountKey).not.toBe(OTHER);
    });
  });

  it('tells random secrets from placeholders', () => {
    for (const secret of [RANDOM, 'kR9#vT2!mX7@qL4$wN8%zB1^cJ6&hF3*', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4']) expect(isPlaceholderSecret(secret)).toBe(false);
    for (const secret of ['secretsecretsecretsecretsecretsecret', '${JWT_SECRET_FROM_ENVIRONMENT_VARIABLE}', '0123012301230123012301230123012301230123', 'changeme1234567890'])
      expect(isPlaceholderSecret(secret)).toBe(true);
  });

  it.each([
    ['a 10-character pattern repeated', '0123456789'.repeat(4)],
    ['a run of consecutive characters', 'abcdefghijklmnopqrstuvwxyz012345'],
    ['a run backwards', 'zyxwvutsrqponmlkjihgfedcba987654'],
    ['a run with a step of 2', 'acegikmoqsuwy02468acegikmoqsuwy0'],
    ['a random half repeated', 'Zr4p9WqL2vX8nT6yZr4p9WqL2vX8nT6y'],
    ['keyboard rows', 'qwertyuiopasdfghjklzxcvbnm123456'],
    ['runs of repeated characters', 'aaaabbbbccccddddeeeeffffgggghhhh'],
    ['a placeholder word padded with a run', 'password1234567890abcdefghijklmn'],
  ])('refuses %s (less than 128 bits by the entropy bound or the strength estimator)', (_kind, secret) => {
    expect(isPlaceholderSecret(secret)).toBe(true);
    expect(Math.min(estimatedEntropyBits(secret), estimatedGuessBits(secret))).toBeLessThan(128);
  });

  it('never refuses random secrets of 32 characters or more', () => {
    const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    // Each draw costs the estimator tens of milliseconds (docs/decisions/0010-secrets.md): a few draws, not thousands.
    for (let i = 0; i < 20; i++) {
      expect(isPlaceholderSecret(randomBytes(32).toString('base64url'))).toBe(false);
      expect(isPlaceholderSecret(randomBytes(24).toString('base64'))).toBe(false);
      expect(isPlaceholderSecret(randomBytes(20).toString('hex'))).toBe(false);
      expect(isPlaceholderSecret(Array.from({ length: 32 }, () => alphanumeric[randomInt(alphanumeric.length)]).join(''))).toBe(false);
    }
  });
});
