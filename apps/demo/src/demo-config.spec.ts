import { describe, expect, it } from '@jest/globals';
import { demoAuthOptions } from './demo-auth-options.js';
import { readDemoConfig } from './demo-config.js';

const OIDC = JSON.stringify([{ name: 'corp', issuer: 'https://sso.example.com', client_id: 'demo', client_secret: 'x' }]);
const OAUTH2 = JSON.stringify([{ name: 'acme', client_id: 'demo', client_secret: 'x', authorization_url: 'https://a.test/a', token_url: 'https://a.test/t', userinfo_url: 'https://a.test/u' }]);

const shape = (env: NodeJS.ProcessEnv) => {
  const { login, credential, strategy, unread } = readDemoConfig(env);
  return { login, credential, strategy, unread };
};

describe('readDemoConfig: the login methods and the credential', () => {
  it('without AUTH_LOGIN, npm start alone is password login with a session, in the seed shape', () => {
    expect(shape({})).toEqual({ login: ['password'], credential: 'session', strategy: 'session', unread: [] });
  });

  it.each([
    [{ AUTH_STRATEGY: 'jwt' }, { login: ['password'], credential: 'jwt', strategy: 'jwt' }],
    [{ AUTH_STRATEGY: 'oidc', OIDC_PROVIDERS: OIDC }, { login: ['oidc'], credential: 'session', strategy: 'oidc' }],
    [{ AUTH_STRATEGY: 'oauth2', AUTH_OAUTH_CREDENTIAL: 'jwt', OAUTH2_PROVIDERS: OAUTH2 }, { login: ['oauth2'], credential: 'jwt', strategy: 'oauth2' }],
  ])('without AUTH_LOGIN, %o means what it meant', (env, expected) => {
    expect(shape(env)).toEqual({ ...expected, unread: [] });
  });

  it('with AUTH_LOGIN, the set (in a fixed order, spaces allowed) and AUTH_CREDENTIAL; AUTH_STRATEGY and AUTH_OAUTH_CREDENTIAL are not read', () => {
    const env = { AUTH_LOGIN: 'oidc, password,oauth2', AUTH_CREDENTIAL: 'jwt', AUTH_STRATEGY: 'ldap', AUTH_OAUTH_CREDENTIAL: 'cookie', OIDC_PROVIDERS: OIDC, OAUTH2_PROVIDERS: OAUTH2 };
    expect(shape(env)).toEqual({ login: ['password', 'oauth2', 'oidc'], credential: 'jwt', strategy: undefined, unread: ['AUTH_STRATEGY', 'AUTH_OAUTH_CREDENTIAL'] });
  });

  it('with AUTH_LOGIN, the credential defaults to session', () => {
    expect(shape({ AUTH_LOGIN: 'password' })).toEqual({ login: ['password'], credential: 'session', strategy: undefined, unread: [] });
  });

  it.each([
    [{ AUTH_LOGIN: 'password,ldap' }, 'AUTH_LOGIN must be a comma list of password, oauth2, oidc (got "ldap")'],
    [{ AUTH_LOGIN: ',' }, 'AUTH_LOGIN must be a comma list of password, oauth2, oidc (got "")'],
    [{ AUTH_LOGIN: 'oidc,oidc', OIDC_PROVIDERS: OIDC }, 'AUTH_LOGIN lists a method twice'],
    [{ AUTH_LOGIN: 'password,oidc', OAUTH2_PROVIDERS: OAUTH2 }, 'AUTH_LOGIN has oidc, but OIDC_PROVIDERS lists no provider'],
    [{ AUTH_LOGIN: 'oauth2' }, 'AUTH_LOGIN has oauth2, but OAUTH2_PROVIDERS lists no provider'],
    [{ AUTH_LOGIN: 'password', AUTH_CREDENTIAL: 'cookie' }, 'AUTH_CREDENTIAL must be one of session, jwt'],
    [{ AUTH_CREDENTIAL: 'jwt' }, 'AUTH_CREDENTIAL is read only with AUTH_LOGIN'],
  ])('refuses %o, naming the variable', (env, message) => {
    expect(() => readDemoConfig(env)).toThrow(message);
  });
});

describe('readDemoConfig: where it listens', () => {
  it('on loopback unless HOST says otherwise', () => {
    expect(readDemoConfig({}).host).toBe('127.0.0.1');
    expect(readDemoConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(readDemoConfig({ HOST: '::1' }).host).toBe('::1');
    expect(() => readDemoConfig({ HOST: 'example.com' })).toThrow('HOST must be an IP address to listen on (0.0.0.0 for every interface), or localhost');
  });
});

describe('readDemoConfig: AUTH_EMAIL_VERIFICATION', () => {
  it('is optional where people sign up with a password, off where nobody does', () => {
    expect(readDemoConfig({}).emailVerification).toBe('optional');
    expect(readDemoConfig({ AUTH_LOGIN: 'password,oidc', OIDC_PROVIDERS: OIDC }).emailVerification).toBe('optional');
    expect(readDemoConfig({ AUTH_STRATEGY: 'oidc', OIDC_PROVIDERS: OIDC }).emailVerification).toBe('off');
  });

  it.each(['required', 'optional', 'off'])('takes %s', (mode) => {
    expect(readDemoConfig({ AUTH_EMAIL_VERIFICATION: mode }).emailVerification).toBe(mode);
  });

  it('refuses anything else, and verification without a password method, naming the variable', () => {
    expect(() => readDemoConfig({ AUTH_EMAIL_VERIFICATION: 'yes' })).toThrow('AUTH_EMAIL_VERIFICATION must be one of required, optional, off');
    expect(() => readDemoConfig({ AUTH_STRATEGY: 'oidc', OIDC_PROVIDERS: OIDC, AUTH_EMAIL_VERIFICATION: 'required' })).toThrow(
      'AUTH_EMAIL_VERIFICATION is required, but nobody signs in with a password here: verification needs the password method (or set it to off)',
    );
    expect(readDemoConfig({ AUTH_STRATEGY: 'oidc', OIDC_PROVIDERS: OIDC, AUTH_EMAIL_VERIFICATION: 'off' }).emailVerification).toBe('off');
  });
});

describe('readDemoConfig: passkeys', () => {
  it('are on beside a password, with either credential, when AUTH_BASE_URL has a host name (npm start: http://localhost:3000)', () => {
    expect(readDemoConfig({}).passkeys).toBe(true);
    expect(readDemoConfig({ AUTH_STRATEGY: 'jwt', AUTH_BASE_URL: 'https://demo.example.com' }).passkeys).toBe(true);
    expect(readDemoConfig({ AUTH_LOGIN: 'password,oidc', OIDC_PROVIDERS: OIDC, AUTH_CREDENTIAL: 'jwt' }).passkeys).toBe(true);
  });

  it('are off where nobody has a password', () => {
    expect(readDemoConfig({ AUTH_STRATEGY: 'oidc', OIDC_PROVIDERS: OIDC }).passkeys).toBe(false);
    expect(readDemoConfig({ AUTH_LOGIN: 'oauth2', OAUTH2_PROVIDERS: OAUTH2 }).passkeys).toBe(false);
  });

  it.each(['http://127.0.0.1:3000', 'http://[::1]:3000', 'http://10.0.0.7'])('are off when AUTH_BASE_URL is on an IP address (%s): WebAuthn needs a host name', (baseUrl) => {
    expect(readDemoConfig({ AUTH_BASE_URL: baseUrl }).passkeys).toBe(false);
  });

  it('are off on plain http away from localhost (browsers offer WebAuthn to secure contexts only), on with http on a *.localhost name', () => {
    expect(readDemoConfig({ AUTH_BASE_URL: 'http://demo.example.com' }).passkeys).toBe(false);
    expect(readDemoConfig({ AUTH_BASE_URL: 'http://app.localhost:3000' }).passkeys).toBe(true);
  });
});

describe('readDemoConfig: DEMO_ADMIN_EMAILS', () => {
  it('is empty by default, and a comma list of addresses normalised as svc normalises an email', () => {
    expect([...readDemoConfig({}).adminEmails]).toEqual([]);
    expect([...readDemoConfig({ DEMO_ADMIN_EMAILS: ' Ops@Example.COM, ｒｏｏｔ@example.com ,' }).adminEmails]).toEqual(['ops@example.com', 'root@example.com']);
  });

  it('refuses an entry that is not an address, naming the variable', () => {
    expect(() => readDemoConfig({ DEMO_ADMIN_EMAILS: 'ops@example.com, nobody' })).toThrow('DEMO_ADMIN_EMAILS must be a comma list of email addresses (got "nobody")');
  });
});

describe('readDemoConfig: AUTH_PRINCIPAL_CACHE', () => {
  it('is off by default, and names the invalidation (Redis at REDIS_URL) when on', () => {
    expect(readDemoConfig({}).principalCache).toBeUndefined();
    expect(readDemoConfig({ AUTH_PRINCIPAL_CACHE: 'off' }).principalCache).toBeUndefined();
    expect(readDemoConfig({ AUTH_PRINCIPAL_CACHE: 'postgres' }).principalCache).toEqual({ invalidation: 'postgres', redisUrl: 'redis://127.0.0.1:6379' });
    expect(readDemoConfig({ AUTH_PRINCIPAL_CACHE: 'redis', REDIS_URL: 'redis://cache:6379' }).principalCache).toEqual({ invalidation: 'redis', redisUrl: 'redis://cache:6379' });
  });

  it('refuses anything else, naming the variable', () => {
    expect(() => readDemoConfig({ AUTH_PRINCIPAL_CACHE: 'on' })).toThrow('AUTH_PRINCIPAL_CACHE must be one of off, postgres, redis, local');
  });
});

describe('readDemoConfig: AUTH_NATIVE_CLIENTS', () => {
  it('is off by default, on with on', () => {
    expect(readDemoConfig({}).nativeClients).toBe(false);
    expect(readDemoConfig({ AUTH_NATIVE_CLIENTS: 'off' }).nativeClients).toBe(false);
    expect(readDemoConfig({ AUTH_NATIVE_CLIENTS: 'on', AUTH_STRATEGY: 'session' }).nativeClients).toBe(true);
  });

  it('refuses anything else, naming the variable', () => {
    expect(() => readDemoConfig({ AUTH_NATIVE_CLIENTS: 'yes' })).toThrow('AUTH_NATIVE_CLIENTS must be one of on, off');
  });
});

describe('readDemoConfig: AUTH_JWT_ALG and AUTH_JWT_KEYS', () => {
  const KEY = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n-----END PRIVATE KEY-----\n';

  it('is HMAC over the secret when unset', () => {
    expect(readDemoConfig({ AUTH_STRATEGY: 'jwt' }).jwtSigning).toBeUndefined();
  });

  it('takes the keys of AUTH_JWT_KEYS, the first signing', () => {
    const keys = [{ kid: 'k1', privateKey: KEY }];
    expect(readDemoConfig({ AUTH_STRATEGY: 'jwt', AUTH_JWT_ALG: 'EdDSA', AUTH_JWT_KEYS: JSON.stringify(keys) }).jwtSigning).toEqual({ signing: { algorithm: 'EdDSA', keys }, generated: false });
  });

  it.each(['EdDSA', 'ES256', 'RS256'])('without AUTH_JWT_KEYS generates one %s key for the run', (algorithm) => {
    const signing = readDemoConfig({ AUTH_LOGIN: 'password', AUTH_CREDENTIAL: 'jwt', AUTH_JWT_ALG: algorithm }).jwtSigning!;
    expect(signing.generated).toBe(true);
    expect(signing.signing.algorithm).toBe(algorithm);
    expect(signing.signing.keys![0].privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it.each([
    [{ AUTH_STRATEGY: 'jwt', AUTH_JWT_ALG: 'HS512' }, 'AUTH_JWT_ALG must be one of EdDSA, ES256, RS256'],
    [{ AUTH_JWT_ALG: 'EdDSA' }, 'AUTH_JWT_ALG is read only with the jwt credential'],
    [{ AUTH_STRATEGY: 'jwt', AUTH_JWT_KEYS: '[]' }, 'AUTH_JWT_KEYS needs AUTH_JWT_ALG'],
    [{ AUTH_STRATEGY: 'jwt', AUTH_JWT_ALG: 'EdDSA', AUTH_JWT_KEYS: '{' }, 'AUTH_JWT_KEYS must be JSON'],
    [{ AUTH_STRATEGY: 'jwt', AUTH_JWT_ALG: 'EdDSA', AUTH_JWT_KEYS: '[{"kid":"k1"}]' }, 'AUTH_JWT_KEYS must be a non-empty JSON list'],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => readDemoConfig(env)).toThrow(message);
  });
});

describe('readDemoConfig: AUTH_REAUTH_MAX_AGE_SECONDS', () => {
  it('is 900 by default, the library default of reauth.maxAgeSeconds, and takes 1..86400', () => {
    expect(readDemoConfig({}).reauthMaxAgeSeconds).toBe(900);
    expect(readDemoConfig({ AUTH_REAUTH_MAX_AGE_SECONDS: '60' }).reauthMaxAgeSeconds).toBe(60);
    expect(() => readDemoConfig({ AUTH_REAUTH_MAX_AGE_SECONDS: '0' })).toThrow('AUTH_REAUTH_MAX_AGE_SECONDS must be an integer between 1 and 86400');
  });
});

describe('readDemoConfig: AUTH_BCRYPT_COST', () => {
  it('is 12 by default, the library default of password.bcryptCost, takes 10..15 and reaches the password section', () => {
    expect(readDemoConfig({}).bcryptCost).toBe(12);
    expect(demoAuthOptions(readDemoConfig({})).password).toEqual({ bcryptCost: 12 });
    expect(demoAuthOptions(readDemoConfig({ AUTH_LOGIN: 'password', AUTH_BCRYPT_COST: '10' })).password).toEqual({ bcryptCost: 10 });
    expect(demoAuthOptions(readDemoConfig({ AUTH_STRATEGY: 'oidc', OIDC_PROVIDERS: OIDC })).password).toBeUndefined();
    expect(() => readDemoConfig({ AUTH_BCRYPT_COST: '9' })).toThrow('AUTH_BCRYPT_COST must be an integer between 10 and 15');
    expect(() => readDemoConfig({ AUTH_BCRYPT_COST: '16' })).toThrow('AUTH_BCRYPT_COST must be an integer between 10 and 15');
  });
});

describe('readDemoConfig: AUTH_AUDIT', () => {
  it('keeps the activity log on by default; off turns it off; anything else is refused, naming the variable', () => {
    expect(readDemoConfig({}).audit).toBe(true);
    expect(readDemoConfig({ AUTH_AUDIT: 'on' }).audit).toBe(true);
    expect(readDemoConfig({ AUTH_AUDIT: 'off' }).audit).toBe(false);
    expect(() => readDemoConfig({ AUTH_AUDIT: 'yes' })).toThrow(/AUTH_AUDIT/);
  });
});
