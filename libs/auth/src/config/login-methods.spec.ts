import { describe, expect, it } from '@jest/globals';
import { AuthConfigError } from './auth-config.error.js';
import type { AuthOptions } from './auth-options.js';
import { moduleShapeOf, optionalPartsOf } from './login-methods.js';
import type { OAuth2ProviderOptions, OidcProviderOptions } from './oauth-options.js';
import { validateAuthOptions } from './validate-auth-options.js';

const SECRET = 'Zr4p9WqL2vX8nT6yB1cM5kD7hF3sJ0gA';
const github: OAuth2ProviderOptions = {
  name: 'gh',
  clientId: 'Iv1.8a61f9b3a7aba766',
  clientSecret: '1ae3f2b8c4d5e6f708192a3b4c5d6e7f8091a2b3',
  authorizationUrl: 'https://github.com/login/oauth/authorize',
  tokenUrl: 'https://github.com/login/oauth/access_token',
  userinfoUrl: 'https://api.github.com/user',
  mapProfileToUser: async () => ({ provider: 'gh', providerUserId: '1', email: null, emailVerified: false, name: null, avatarUrl: null }),
};
const google: OidcProviderOptions = { name: 'google', issuer: 'https://accounts.google.com', clientId: 'c.apps.googleusercontent.com', clientSecret: 'GOCSPX-q8Vz3kR1xN7pL2mW9tY4bH6c' };

/** `forRoot`: the options and the graph-shaping extras are one object. */
function forRoot(options: AuthOptions & Record<string, unknown>) {
  return validateAuthOptions(options, options as never);
}

describe('the module shape: one credential and a set of login methods', () => {
  it('reads the login methods off the sections given; none at all is password alone; the credential defaults to session', () => {
    expect(moduleShapeOf({})).toEqual({ credential: 'session', loginMethods: ['password'] });
    expect(moduleShapeOf({ credential: 'jwt', oidc: {} } as never)).toEqual({ credential: 'jwt', loginMethods: ['oidc'] });
    expect(moduleShapeOf({ oidc: {}, password: {}, oauth2: {} } as never)).toEqual({ credential: 'session', loginMethods: ['password', 'oauth2', 'oidc'] });
    expect(moduleShapeOf({ login: ['oidc', 'password'] })).toEqual({ credential: 'session', loginMethods: ['password', 'oidc'] });
  });

  it('keeps the strategy shorthand as its set of one', () => {
    expect(moduleShapeOf({ strategy: 'jwt' })).toEqual({ credential: 'jwt', loginMethods: ['password'], strategy: 'jwt' });
    expect(moduleShapeOf({ strategy: 'oidc', oidc: { strategy: 'jwt' } } as never)).toEqual({ credential: 'jwt', loginMethods: ['oidc'], strategy: 'oidc' });
    expect(moduleShapeOf({ strategy: 'oauth2', credential: 'jwt' })).toEqual({ credential: 'jwt', loginMethods: ['oauth2'], strategy: 'oauth2' });
  });

  it.each<[string, Record<string, unknown>, AuthConfigError]>([
    ['an unknown credential', { credential: 'cookie' }, new AuthConfigError('credential', 'must be one of session, jwt', 'cookie')],
    ['an empty login list', { login: [] }, new AuthConfigError('login', 'must list at least one of password, oauth2, oidc', [])],
    ['an unknown login method', { login: ['password', 'ldap'] }, new AuthConfigError('login[1]', 'must be one of password, oauth2, oidc', 'ldap')],
    ['a method listed twice', { login: ['oidc', 'oidc'] }, new AuthConfigError('login', 'lists a method twice')],
    ['login with the shorthand', { strategy: 'session', login: ['password'] }, new AuthConfigError('login', 'cannot be given with the strategy shorthand: give credential and login instead of strategy')],
    ['a credential the shorthand contradicts', { strategy: 'session', credential: 'jwt' }, new AuthConfigError('credential', "must be session with strategy 'session' (or be left out)", 'jwt')],
  ])('refuses %s', (_case, extras, error) => {
    expect(() => moduleShapeOf(extras as never)).toThrow(error);
  });
});

describe('a configured section that would not take effect stops startup, naming it', () => {
  const base = { baseUrl: 'https://app.test', secret: SECRET };

  it.each<[string, AuthOptions, Record<string, unknown>, AuthConfigError]>([
    [
      'an oidc section without the oidc method (forRootAsync)',
      { ...base, oidc: { providers: [google] } },
      { login: ['password'] },
      new AuthConfigError('oidc', "is given but the oidc login method is not on: add 'oidc' to the login extra, or leave the section out"),
    ],
    [
      'an oauth2 section beside strategy session',
      { ...base, oauth2: { providers: [github] } },
      { strategy: 'session' },
      new AuthConfigError('oauth2', "is given but strategy 'session' has no oauth2 login: leave the section out"),
    ],
    [
      'a password section beside strategy oidc',
      { ...base, password: { bcryptCost: 12 }, oidc: { secretKey: SECRET, providers: [google] } },
      { strategy: 'oidc' },
      new AuthConfigError('password', "is given but strategy 'oidc' has no password login: leave the section out"),
    ],
    ['a jwt section with the session credential', { ...base, jwt: { secretKey: SECRET } }, { credential: 'session' }, new AuthConfigError('jwt', 'is given but the credential is session: it would not take effect')],
    ['a session section with the jwt credential', { ...base, session: { expireDays: 3 } }, { credential: 'jwt' }, new AuthConfigError('session', 'is given but the credential is jwt: it would not take effect')],
    [
      'a method without its section (forRootAsync)',
      { ...base },
      { login: ['password', 'oidc'] },
      new AuthConfigError('oidc', 'is required for the oidc login method'),
    ],
  ])('%s', (_case, options, extras, error) => {
    expect(() => validateAuthOptions(options, extras)).toThrow(error);
  });

  it('names the credential once: a section strategy is the shorthand’s only', () => {
    expect(() => forRoot({ ...base, credential: 'jwt', oidc: { strategy: 'jwt', providers: [google] } })).toThrow(
      new AuthConfigError('oidc.strategy', "belongs to the strategy shorthand: name the credential once, with AuthModule's credential option"),
    );
  });

  it('keeps provider names unique across oauth2 and oidc', () => {
    expect(() => forRoot({ ...base, oauth2: { providers: [github] }, oidc: { providers: [{ ...google, name: 'gh' }] } })).toThrow(
      new AuthConfigError('oidc.providers[0].name', '"gh" is also an oauth2 provider\'s name: names are unique across oauth2 and oidc'),
    );
  });

  it('needs a key for each thing that signs: the section’s own, or the module secret', () => {
    expect(() => forRoot({ baseUrl: 'https://app.test', oidc: { providers: [google] } })).toThrow(
      new AuthConfigError('oidc.secretKey', 'is required (or give the module a secret to derive it from)'),
    );
    expect(() => forRoot({ baseUrl: 'https://app.test', credential: 'jwt' })).toThrow(new AuthConfigError('jwt.secretKey', 'is required (or give the module a secret to derive it from)'));
    expect(() => forRoot({ baseUrl: 'https://app.test', secret: 'changeme'.repeat(5) })).toThrow('secret is a placeholder value');
  });

  it('derives one key per purpose from the module secret, never the secret itself', () => {
    const config = forRoot({ ...base, credential: 'jwt', password: {}, oidc: { providers: [google] }, oauth2: { providers: [github] } });
    expect(config.loginMethods).toEqual(['password', 'oauth2', 'oidc']);
    const keys = [config.jwt!.secretKey, config.oauth2!.secretKey, config.oidc!.secretKey];
    expect(new Set([...keys, SECRET]).size).toBe(4);
    expect(forRoot({ ...base, credential: 'jwt' }).jwt!.secretKey).toBe(config.jwt!.secretKey);
  });

  it('a password and both provider methods with the session credential', () => {
    const config = forRoot({ ...base, password: { bcryptCost: 11 }, oauth2: { providers: [github], errorRedirect: '/signin' }, oidc: { providers: [google] } });
    expect(config).toMatchObject({ credential: 'session', loginMethods: ['password', 'oauth2', 'oidc'], password: { bcryptCost: 11 }, oauth2: { errorRedirect: '/signin' } });
    expect(config.oidc!.errorRedirect).toBeUndefined();
    expect(config.jwt).toBeUndefined();
    expect(() => forRoot({ ...base, oidc: { providers: [google], errorRedirect: 'https://evil.test/' } })).toThrow(
      new AuthConfigError('oidc.errorRedirect', 'must be a same-origin relative path (such as "/" or "/app")', 'https://evil.test/'),
    );
  });
});

describe('a configuration error says what it got, never a secret', () => {
  const refusal = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('no AuthConfigError');
  };

  it('quotes a wrong value (shortened), names its kind when it is not a string', () => {
    expect(refusal(() => forRoot({ baseUrl: '/' }))).toBe('baseUrl must be an absolute URL (got "/")');
    expect(refusal(() => forRoot({ baseUrl: 'https://app.test', bodyLimitBytes: 'big' as never }))).toBe('bodyLimitBytes must be an integer (got "big")');
    expect(refusal(() => forRoot({ baseUrl: 'https://app.test', trustedOrigins: ['x'.repeat(200)] }))).toBe(`trustedOrigins[0] must be an absolute URL (got "${'x'.repeat(80)}…")`);
    expect(refusal(() => forRoot({ baseUrl: 'https://app.test', cookie: { secure: {} as never } }))).toBe('cookie.secure must be true or false (got an object)');
  });

  it('never quotes a secret', () => {
    const short = 'Zr4p9WqL2vX8nT6yB1cM';
    const weak = 'changeme'.repeat(5);
    for (const message of [
      refusal(() => forRoot({ baseUrl: 'https://app.test', secret: short })),
      refusal(() => forRoot({ baseUrl: 'https://app.test', secret: weak })),
      refusal(() => forRoot({ baseUrl: 'https://app.test', credential: 'jwt', jwt: { secretKey: weak } })),
      refusal(() => forRoot({ baseUrl: 'https://app.test', secret: SECRET, oidc: { providers: [{ ...google, clientSecret: 'changeme' }] } })),
      refusal(() => forRoot({ baseUrl: 'https://app.test', secret: SECRET, oidc: { providers: [{ ...google, clientSecret: 's'.repeat(1100) }] } })),
    ]) {
      expect(message).not.toMatch(/\(got /);
      for (const secret of [short, weak, 'changeme', 'ssssssss']) expect(message).not.toContain(secret);
    }
  });
});

describe('the optional parts: in the module graph only with their sections (docs/decisions/0001-module-shape.md)', () => {
  const base = { baseUrl: 'https://app.test', secret: SECRET };

  it('reads them off the sections given (forRoot), or off the features extra (forRootAsync, default none)', () => {
    expect(optionalPartsOf({})).toEqual([]);
    expect(optionalPartsOf({ principalCache: {}, mfa: { issuer: 'x' } } as never)).toEqual(['mfa', 'principalCache']);
    expect(optionalPartsOf({ features: ['principalCache', 'passkeys'] })).toEqual(['passkeys', 'principalCache']);
  });

  it.each<[string, Record<string, unknown>, AuthConfigError]>([
    ['an unknown part', { features: ['passkeys', 'sms'] }, new AuthConfigError('features[1]', 'must be one of passkeys, mfa, principalCache, admin, apiKeys, audit, organizations', 'sms')],
    ['a part listed twice', { features: ['mfa', 'mfa'] }, new AuthConfigError('features', 'lists a part twice')],
    ['a list that is not one', { features: 'mfa' }, new AuthConfigError('features', 'must list some of passkeys, mfa, principalCache, admin, apiKeys, audit, organizations', 'mfa')],
  ])('refuses %s', (_case, extras, error) => {
    expect(() => optionalPartsOf(extras as never)).toThrow(error);
  });

  it.each<[string, AuthOptions, Record<string, unknown>, AuthConfigError]>([
    [
      'a section from the factory the graph was built without',
      { ...base, passkeys: {} },
      { strategy: 'session' },
      new AuthConfigError('passkeys', "is given but the module was built without it: with forRootAsync, add 'passkeys' to the features extra, or leave the section out"),
    ],
    ['a listed part without its section', { ...base }, { strategy: 'session', features: ['mfa'] }, new AuthConfigError('mfa', "is required: the features extra lists 'mfa'")],
  ])('stops %s, naming it', (_case, options, extras, error) => {
    expect(() => validateAuthOptions(options, extras)).toThrow(error);
  });
});
