import { describe, expect, it } from '@jest/globals';
import type { AuthOptions } from './auth-options.js';
import type { OAuth2ProviderOptions, OidcProviderOptions } from './oauth-options.js';
import { validateAuthOptions } from './validate-auth-options.js';

const SECRET = 'Zr4p9WqL2vX8nT6yB1cM5kD7hF3sJ0gA';
const mapper = async () => ({ provider: 'gh', providerUserId: '1', email: null, emailVerified: false, name: null, avatarUrl: null });
const github: OAuth2ProviderOptions = {
  name: 'gh',
  clientId: 'Iv1.8a61f9b3a7aba766',
  clientSecret: '1ae3f2b8c4d5e6f708192a3b4c5d6e7f8091a2b3',
  authorizationUrl: 'https://github.com/login/oauth/authorize',
  tokenUrl: 'https://github.com/login/oauth/access_token',
  userinfoUrl: 'https://api.github.com/user',
  scopes: ['read:user', 'user:email'],
  mapProfileToUser: mapper,
};
const google: OidcProviderOptions = { name: 'google', issuer: 'https://accounts.google.com', clientId: 'c.apps.googleusercontent.com', clientSecret: 'GOCSPX-q8Vz3kR1xN7pL2mW9tY4bH6c' };
const oauth2 = (providers: unknown[], extra: object = {}): AuthOptions => ({ baseUrl: 'https://app.test', oauth2: { secretKey: SECRET, providers: providers as OAuth2ProviderOptions[], ...extra } });
const oidc = (providers: unknown[], extra: object = {}): AuthOptions => ({ baseUrl: 'https://app.test', oidc: { secretKey: SECRET, providers: providers as OidcProviderOptions[], ...extra } });

describe('validateAuthOptions: the oauth2 and oidc sections', () => {
  it('fills the defaults, builds the redirect URI and freezes the section', () => {
    const config = validateAuthOptions(oauth2([github]), { strategy: 'oauth2' });
    expect(config.credential).toBe('session');
    expect(config.oauth2).toEqual({
      secretKey: SECRET,
      stateTtlSeconds: 600,
      postLoginRedirect: '/',
      providerTimeoutSeconds: 5,
      providers: [
        {
          name: 'gh',
          clientId: github.clientId,
          clientSecret: github.clientSecret,
          scopes: ['read:user', 'user:email'],
          pkce: true,
          tokenEndpointAuthMethod: 'client_secret_basic',
          redirectUri: 'https://app.test/auth/oauth2/gh/callback',
          authorizationUrl: github.authorizationUrl,
          tokenUrl: github.tokenUrl,
          userinfoUrl: github.userinfoUrl,
          issuer: 'https://github.com',
          mapProfileToUser: mapper,
        },
      ],
    });
    expect(Object.isFrozen(config.oauth2!.providers[0])).toBe(true);
    expect(config.jwt).toBeUndefined();
    const oidcConfig = validateAuthOptions(oidc([google]), { strategy: 'oidc', prefix: '/api/auth' });
    expect(oidcConfig.oidc!.providers[0]).toMatchObject({ scopes: ['openid', 'email', 'profile'], idTokenSigningAlg: 'RS256', redirectUri: 'https://app.test/api/auth/oidc/google/callback' });
  });

  it('gives the jwt credential its defaults and a key derived from the section secret, unless a jwt section is given', () => {
    const derived = validateAuthOptions(oauth2([github], { strategy: 'jwt' }), { strategy: 'oauth2', credential: 'jwt' });
    expect(derived.credential).toBe('jwt');
    expect(derived.jwt).toMatchObject({ algorithm: 'HS256', accessTokenExpireMinutes: 10, refreshTokenExpireDays: 7 });
    expect(derived.jwt!.secretKey).not.toBe(SECRET);
    expect(derived.jwt!.secretKey).toHaveLength(43);
    const own = validateAuthOptions({ ...oauth2([github], { strategy: 'jwt' }), jwt: { secretKey: 'kR9#vT2!mX7@qL4$wN8%zB1^cJ6&hF3*', accessTokenExpireMinutes: 5 } }, { strategy: 'oauth2', credential: 'jwt' });
    expect(own.jwt).toMatchObject({ secretKey: 'kR9#vT2!mX7@qL4$wN8%zB1^cJ6&hF3*', accessTokenExpireMinutes: 5 });
  });

  it.each<[string, AuthOptions, string]>([
    ['no section', { baseUrl: 'https://app.test' }, 'oauth2 is required for the oauth2 strategy'],
    ['no providers', oauth2([]), 'oauth2.providers must list at least one provider'],
    ['a placeholder secret', { baseUrl: 'https://app.test', oauth2: { secretKey: 'abcdefghijklmnopqrstuvwxyz012345', providers: [github] } }, 'oauth2.secretKey is a placeholder value'],
    ['a short secret', { baseUrl: 'https://app.test', oauth2: { secretKey: 'short', providers: [github] } }, 'oauth2.secretKey must be at least 32 characters'],
    ['a name used twice', oauth2([github, github]), 'oauth2.providers[1].name "gh" is used twice'],
    ['a name that is not URL-safe', oauth2([{ ...github, name: 'git hub' }]), 'oauth2.providers[0].name must hold only letters, digits'],
    ['plain http to a remote host', oauth2([{ ...github, tokenUrl: 'http://github.com/token' }]), 'oauth2.providers[0].tokenUrl must be an https URL (plain http only on a loopback host)'],
    ['a URL that is not one', oauth2([{ ...github, userinfoUrl: 'api.github.com/user' }]), 'oauth2.providers[0].userinfoUrl must be an absolute URL'],
    ['no mapper', oauth2([{ ...github, mapProfileToUser: undefined }]), 'oauth2.providers[0].mapProfileToUser is required'],
    ['a placeholder client secret', oauth2([{ ...github, clientSecret: 'changeme' }]), 'oauth2.providers[0].clientSecret is a placeholder value'],
    ['a template client secret', oauth2([{ ...github, clientSecret: '${GITHUB_SECRET}' }]), 'oauth2.providers[0].clientSecret is a placeholder value'],
    ['a redirect URI that is not the callback', oauth2([{ ...github, redirectUri: 'https://evil.test/auth/oauth2/gh/callback' }]), 'oauth2.providers[0].redirectUri must be this module\'s callback, https://app.test/auth/oauth2/gh/callback'],
    ['another auth method', oauth2([{ ...github, tokenEndpointAuthMethod: 'private_key_jwt' }]), 'oauth2.providers[0].tokenEndpointAuthMethod must be one of client_secret_basic, client_secret_post'],
    ['a scope with a space', oauth2([{ ...github, scopes: ['read user'] }]), 'oauth2.providers[0].scopes[0] must be a scope token'],
    ['an absolute post-login redirect', oauth2([github], { postLoginRedirect: 'https://evil.test/' }), 'oauth2.postLoginRedirect must be a same-origin relative path'],
    ['a state lifetime out of bounds', oauth2([github], { stateTtlSeconds: 59 }), 'oauth2.stateTtlSeconds must be between 60 and 3600'],
    ['an unknown credential', oauth2([github], { strategy: 'cookie' }), 'oauth2.strategy must be one of session, jwt'],
  ])('refuses %s', (_case, options, message) => {
    expect(() => validateAuthOptions(options, { strategy: 'oauth2' })).toThrow(message);
  });

  it.each<[string, AuthOptions, string]>([
    ['an issuer over plain http', oidc([{ ...google, issuer: 'http://accounts.google.com' }]), 'oidc.providers[0].issuer must be an https URL'],
    ['scopes without openid', oidc([{ ...google, scopes: ['email'] }]), 'oidc.providers[0].scopes must include "openid"'],
    ['an HMAC or absent signature', oidc([{ ...google, idTokenSigningAlg: 'HS256' }]), 'oidc.providers[0].idTokenSigningAlg must be one of RS256'],
    ['alg none', oidc([{ ...google, idTokenSigningAlg: 'none' }]), 'oidc.providers[0].idTokenSigningAlg must be one of RS256'],
  ])('refuses %s (oidc)', (_case, options, message) => {
    expect(() => validateAuthOptions(options, { strategy: 'oidc' })).toThrow(message);
  });

  it('accepts loopback providers over plain http (tests use them)', () => {
    for (const host of ['127.0.0.1:9000', 'localhost:9000', '[::1]:9000', '127.8.9.10']) {
      expect(() => validateAuthOptions(oidc([{ ...google, issuer: `http://${host}` }]), { strategy: 'oidc' })).not.toThrow();
    }
  });

  it('the credential given to forRootAsync must match the section', () => {
    expect(validateAuthOptions(oauth2([github]), { strategy: 'oauth2', credential: 'jwt' }).credential).toBe('jwt');
    expect(() => validateAuthOptions(oauth2([github], { strategy: 'session' }), { strategy: 'oauth2', credential: 'jwt' })).toThrow(
      "oauth2.strategy must match the credential AuthModule's routes were built for (jwt): with forRootAsync, give it as the credential extra",
    );
    // forRootAsync without the extra builds the session routes: a factory naming jwt is refused.
    expect(() => validateAuthOptions(oauth2([github], { strategy: 'jwt' }), { strategy: 'oauth2' })).toThrow(
      "oauth2.strategy must match the credential AuthModule's routes were built for (session)",
    );
  });
});
