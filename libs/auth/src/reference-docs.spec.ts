import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthService } from './auth.service.js';
import { validateAuthOptions } from './config/validate-auth-options.js';
import { AUTH_ERRORS } from './errors/error-codes.js';
import { AuthEvent } from './events/auth-events.js';
import { authRoutesOf } from './openapi/index.js';
import { createAuthTestApp } from './testing/index.js';

// The documentation against the code: the README's contents, and each table of docs/reference.
const README = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');
/** The text of a reference file under docs/reference. */
const reference = (name: string) => readFileSync(join(import.meta.dirname, '../../../docs/reference', name), 'utf8');
const SECRET = 'Zr4p9WqL2vX8nT6yB1cM5kD7hF3sJ0gA';

/** The text of the README section under `heading`, up to the next heading of its level or above. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section ${heading}`);
  const level = heading.split(' ')[0];
  const rest = README.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{2,${level.length}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** Every `code span` of the first column of the text's table rows. */
function firstColumnNames(text: string): Set<string> {
  const names = text
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1].matchAll(/`([^`]+)`/g)].map((match) => match[1]));
  return new Set(names);
}

/**
 * Every option path `validateAuthOptions` reads, found by handing it options wrapped in proxies
 * that record each property read (`oauth2.providers[].name`): what the validator knows, not a list
 * kept by hand. Values inside option values (a Redis client, an entity class) are not options.
 */
function optionsTheValidatorReads(): Set<string> {
  const read = new Set<string>();
  const record = <T extends object>(value: T, path: string): T =>
    new Proxy(value, {
      get(target, key, receiver) {
        const child = Reflect.get(target, key, receiver) as unknown;
        if (typeof key !== 'string') return child;
        const isIndex = Array.isArray(target) && /^\d+$/.test(key);
        if (Array.isArray(target) && !isIndex) return child;
        const childPath = isIndex ? `${path}[]` : path ? `${path}.${key}` : key;
        read.add(childPath);
        const opaque = ['rateLimit.redis', 'entities.user', 'hooks', 'authorization.roles'].includes(childPath) || typeof child === 'function';
        return child !== null && typeof child === 'object' && !opaque ? record(child as object, childPath) : child;
      },
    });
  const github = { name: 'gh', clientId: 'c', clientSecret: '1ae3f2b8c4d5e6f708192a3b4c5d6e7f8091a2b3', authorizationUrl: 'https://gh.test/a', tokenUrl: 'https://gh.test/t', userinfoUrl: 'https://gh.test/u', mapProfileToUser: () => null };
  const op = { name: 'op', issuer: 'https://op.test', clientId: 'c', clientSecret: '1ae3f2b8c4d5e6f708192a3b4c5d6e7f8091a2b3' };
  const redis = { evalsha: async () => 1, eval: async () => 1, ping: async () => 'PONG' };
  for (const credential of ['session', 'jwt'] as const) {
    const options = {
      baseUrl: 'https://app.test',
      secret: SECRET,
      credential,
      trustedOrigins: ['https://admin.app.test'],
      password: {},
      emailVerification: {},
      mfa: { issuer: 'svc', challengeProviderLogins: true, previousSecrets: [SECRET] },
      passkeys: { extraOrigins: ['https://m.app.test'] },
      oauth2: { providers: [github] },
      oidc: { providers: [op] },
      rateLimit: { backend: 'redis', redis },
      cookie: {},
      purge: { cron: '0 * * * *' },
      trustProxy: 1,
      authorization: { roles: { admin: ['users:*'], member: [] }, defaultRoles: ['member'] },
      admin: { impersonationTtlSeconds: 1800 },
      apiKeys: { prefix: 'svc_', maxPerUser: 20 },
      audit: { retentionDays: 400 },
      ...(credential === 'jwt' ? { jwt: {} } : { session: {} }),
    };
    const recorded = record(options, '');
    validateAuthOptions(recorded as never, recorded as never);
  }
  // The shorthand's own fields, and the trusted header shorthand (it cannot stand beside trustProxy).
  const shorthand = record({ baseUrl: 'https://app.test', strategy: 'oidc', oidc: { secretKey: SECRET, strategy: 'jwt', providers: [op] }, rateLimit: { trustedIpHeader: 'x-real-ip' } }, '');
  validateAuthOptions(shorthand as never, shorthand as never);
  return read;
}

describe('the README and the reference in docs/reference', () => {
  it('lists every section in its table of contents, in order, with working anchors', () => {
    const headings = [...README.matchAll(/^(#{2,3}) (.+)$/gm)].map(([, level, title]) => ({ level, title })).filter(({ title }) => title !== 'Contents');
    const anchorOf = (title: string) => title.toLowerCase().replace(/[^\w\- ]/g, '').replaceAll(' ', '-');
    const expected = headings.map(({ level, title }) => `${level === '##' ? '' : '  '}- [${title}](#${anchorOf(title)})`);
    const contents = section('## Contents').trim().split('\n');
    expect(contents).toEqual(expected);
    expect(new Set(headings.map(({ title }) => title)).size).toBe(headings.length);
  });

  it('lists every option the validator reads in the options reference', () => {
    const documented = firstColumnNames(reference('options.md'));
    // A section (`rateLimit`) or a list's item (`trustedOrigins[]`) is documented through its fields or its list.
    const covered = (path: string) =>
      documented.has(path) || documented.has(path.replace(/\[\]$/, '')) || [...documented].some((name) => name.startsWith(`${path}.`) || name.startsWith(`${path}[]`));
    const missing = [...optionsTheValidatorReads()].filter((path) => !covered(path));
    expect(missing).toEqual([]);
    // The graph-shaping extras are read while the module is built, not by the validator alone.
    for (const extra of ['credential', 'login', 'strategy', 'prefix', 'entities.user', 'hooks', 'globalGuard']) expect(documented).toContain(extra);
  });

  it('lists every route in the routes reference', async () => {
    const documented = firstColumnNames(reference('routes.md'));
    const op = { name: 'op', issuer: 'https://op.test', clientId: 'c', clientSecret: '1ae3f2b8c4d5e6f708192a3b4c5d6e7f8091a2b3' };
    const github = { ...op, name: 'gh', authorizationUrl: 'https://gh.test/a', tokenUrl: 'https://gh.test/t', userinfoUrl: 'https://gh.test/u', mapProfileToUser: () => null };
    for (const credential of ['session', 'jwt'] as const) {
      // Every part mounted; the mails are the application's, and this one sends none.
      const options = { baseUrl: 'https://app.test', secret: SECRET, password: { sendsResetMail: false }, emailVerification: { sendsMail: false }, mfa: { issuer: 'svc' }, passkeys: {}, oauth2: { providers: [github] }, oidc: { providers: [op] }, authorization: { roles: { admin: ['users:*', 'audit:read'] } }, admin: {}, apiKeys: {}, audit: {} };
      const t = await createAuthTestApp({ credential, options: options as never });
      try {
        const routes = authRoutesOf(t.app).map((route) => `${route.method.toUpperCase()} ${route.path}`);
        expect(routes.filter((route) => !documented.has(route))).toEqual([]);
      } finally {
        await t.close();
      }
    }
  });

  it("lists every public operation of AuthService in its table, and no other", () => {
    const source = readFileSync(join(import.meta.dirname, 'auth.service.ts'), 'utf8');
    const hidden = new Set(['constructor', ...[...source.matchAll(/^ {2}private (?:async )?(\w+)/gm)].map((match) => match[1])]);
    const operations = Object.getOwnPropertyNames(AuthService.prototype).filter((name) => !hidden.has(name));
    const documented = [...firstColumnNames(reference('auth-service.md'))].map((name) => name.replace(/\(.*\)$/, ''));
    expect(documented.sort()).toEqual(operations.sort());
  });

  it('lists every event in the events reference and every error code in the error codes reference', () => {
    const events = firstColumnNames(reference('events.md'));
    expect(Object.values(AuthEvent).filter((name) => !events.has(name))).toEqual([]);
    const codes = firstColumnNames(reference('error-codes.md'));
    expect(Object.keys(AUTH_ERRORS).filter((code) => !codes.has(code))).toEqual([]);
    expect([...codes].filter((code) => !(code in AUTH_ERRORS))).toEqual([]);
  });
});
