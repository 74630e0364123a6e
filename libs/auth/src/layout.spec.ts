import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The layout of libs/auth/src, checked on the imports themselves (TypeScript's own scan of each
 * file: static, type-only, dynamic and `import('…')` types alike). A folder is a top-level folder;
 * its subfolders belong to it. The files at the root are the module's assembly.
 */
const ROOT = path.dirname(fileURLToPath(import.meta.url));

/** The module's assembly: these may import any folder, and only they and the entries import them. */
const ROOT_FILES = ['auth.entities.ts', 'auth.module-definition.ts', 'auth.module.ts', 'auth.service.ts', 'index.ts', 'purge-scheduler.ts'];
/** The package's other entries: they may import the root files. */
const ENTRIES = ['client', 'health', 'openapi', 'passport', 'testing'];
/** A feature owns its routes, services and stores: a credential, a way in, a second factor, a guard. */
const FEATURES = ['credentials', 'login', 'password', 'email', 'oauth', 'oauth2', 'oidc', 'passkeys', 'two-step', 'rate-limit', 'principal-cache', 'authorization', 'admin', 'api-keys', 'account', 'mail', 'reauth', 'audit', 'organizations'];
/** What every feature uses; a shared folder imports no feature. */
const SHARED = ['async', 'config', 'crypto', 'entities', 'errors', 'events', 'hooks', 'http', 'migrations', 'persistence', 'redis', 'users', 'notices', 'audit-log'];
/** The ways in and the second factors: each ends in a credential, which knows none of them. */
const WAYS_IN = ['login', 'password', 'email', 'oauth', 'oauth2', 'oidc', 'passkeys', 'two-step'];
/** A driver or protocol package, and the folders that may import it (none: the library never does). */
const PACKAGE_OWNERS: Record<string, string[]> = {
  // Drivers: PostgreSQL and SQLite are reached through TypeORM; Redis from `{ url }` by redis/ alone.
  ioredis: ['redis'],
  pg: [],
  'better-sqlite3': [],
  'openid-client': ['oauth', 'oauth2', 'oidc'],
  bcrypt: ['password'],
  '@simplewebauthn/server': ['passkeys'],
  otpauth: ['two-step'],
  // The browser and React Native client's own: the server never runs a ceremony or reads a user agent this way.
  '@simplewebauthn/browser': ['client'],
  bowser: ['client'],
  qrcode: ['two-step'],
  // The library verifies its own access tokens with jose; passport is svc/passport's, for other services (docs/decisions/0031-signing-keys.md).
  passport: [],
  'passport-jwt': ['passport'],
  '@nestjs/passport': ['passport'],
};

interface Import {
  from: string;
  to: string;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path.relative(ROOT, full).split(path.sep).join('/')] : [];
  });
}

const FILES = sourceFiles(ROOT);

function specifiersOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(path.join(ROOT, file), 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const IMPORTS: Import[] = FILES.flatMap((file) =>
  specifiersOf(file)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({ from: file, to: path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts') })),
);
const PACKAGE_IMPORTS: Import[] = FILES.flatMap((file) =>
  specifiersOf(file)
    .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
    .map((specifier) => ({ from: file, to: packageOf(specifier) })),
);

/** The top-level folder of a file; the root files are `.`. */
function folderOf(file: string): string {
  const parts = file.split('/');
  return parts.length === 1 ? '.' : parts[0];
}

const between = (imports: Import[]) => imports.filter(({ from, to }) => folderOf(from) !== folderOf(to));
const describeImport = ({ from, to }: Import) => `${from} imports ${to}`;

/** For each import between folders that some chain of imports leads back from: `a -> b -> … -> a`. */
function folderCycles(imports: Import[]): string[] {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of between(imports)) {
    if (!edges.has(folderOf(from))) edges.set(folderOf(from), new Set());
    edges.get(folderOf(from))!.add(folderOf(to));
  }
  const pathBetween = (start: string, goal: string): string[] | null => {
    const cameFrom = new Map<string, string>([[start, start]]);
    const queue = [start];
    while (queue.length > 0) {
      const folder = queue.shift()!;
      if (folder === goal) {
        const trail = [goal];
        while (trail[0] !== start) trail.unshift(cameFrom.get(trail[0])!);
        return trail;
      }
      for (const next of edges.get(folder) ?? []) if (!cameFrom.has(next)) cameFrom.set(next, folder), queue.push(next);
    }
    return null;
  };
  return [...edges].flatMap(([a, targets]) => [...targets].flatMap((b) => (pathBetween(b, a) ? [[a, ...pathBetween(b, a)!].join(' -> ')] : [])));
}

/** Imports of a root file from a folder that is not an entry. */
function rootImportsFromInside(imports: Import[]): string[] {
  return between(imports)
    .filter(({ from, to }) => folderOf(to) === '.' && !ENTRIES.includes(folderOf(from)))
    .map(describeImport);
}

/** Imports of a feature or an entry from a shared folder, and of an entry from a feature. */
function importsAgainstTheTiers(imports: Import[]): string[] {
  return between(imports)
    .filter(({ from, to }) => {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (SHARED.includes(a)) return FEATURES.includes(b) || ENTRIES.includes(b);
      if (FEATURES.includes(a)) return ENTRIES.includes(b);
      return false;
    })
    .map(describeImport);
}

/** Imports, from another folder, of a file in a subfolder (`credentials/jwt/…`); the root may. */
function importsOfAnotherFoldersSubfolders(imports: Import[]): string[] {
  return between(imports)
    .filter(({ from, to }) => folderOf(from) !== '.' && to.split('/').length > 2)
    .map(describeImport);
}

function credentialsImportingAWayIn(imports: Import[]): string[] {
  return imports.filter(({ from, to }) => folderOf(from) === 'credentials' && WAYS_IN.includes(folderOf(to))).map(describeImport);
}

/** The client runs in browsers and React Native: it imports no other folder (they pull in Nest and TypeORM) and no Node built-in. */
function clientReachingTheServer(imports: Import[], packages: Import[], builtins: Import[]): string[] {
  return [...between(imports), ...packages.filter(({ to }) => to.startsWith('@nestjs/') || to === 'typeorm' || to === 'reflect-metadata'), ...builtins]
    .filter(({ from }) => folderOf(from) === 'client')
    .map(describeImport);
}

const BUILTIN_IMPORTS: Import[] = FILES.flatMap((file) =>
  specifiersOf(file)
    .filter((specifier) => specifier.startsWith('node:'))
    .map((specifier) => ({ from: file, to: specifier })),
);

function packageStrays(imports: Import[]): string[] {
  return imports.filter(({ from, to }) => PACKAGE_OWNERS[to] && !PACKAGE_OWNERS[to].includes(folderOf(from))).map(describeImport);
}

describe('the layout of libs/auth/src', () => {
  it('knows every folder as an entry, a feature or a shared folder, and every root file, and lists none that is gone', () => {
    const folders = readdirSync(ROOT, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual([...ENTRIES, ...FEATURES, ...SHARED].sort());
    expect(FILES.filter((file) => folderOf(file) === '.').sort()).toEqual(ROOT_FILES);
  });

  it('has no two folders that import each other, directly or through others, the root files included', () => {
    expect(folderCycles(IMPORTS)).toEqual([]);
  });

  it('keeps the root files for the root and the entries: no other folder imports them', () => {
    expect(rootImportsFromInside(IMPORTS)).toEqual([]);
  });

  it('keeps the shared folders free of features and entries, and the features free of entries', () => {
    expect(importsAgainstTheTiers(IMPORTS)).toEqual([]);
  });

  it("keeps a folder's subfolders its own: another folder reaches only the files at its top (credentials/session/ and credentials/jwt/ are behind the contracts in credentials/)", () => {
    expect(importsOfAnotherFoldersSubfolders(IMPORTS)).toEqual([]);
  });

  it('keeps credentials apart from the ways in: credentials/ imports none of them', () => {
    expect(credentialsImportingAWayIn(IMPORTS)).toEqual([]);
  });

  it('keeps the client entry free of the server: no other folder, no Nest, no TypeORM, no Node built-in', () => {
    expect(clientReachingTheServer(IMPORTS, PACKAGE_IMPORTS, BUILTIN_IMPORTS)).toEqual([]);
  });

  it('imports a driver or protocol package from its own folder only, and each owner does import it', () => {
    expect(packageStrays(PACKAGE_IMPORTS)).toEqual([]);
    // An owner that no longer imports its package means the rule (or the scan) has gone stale.
    const unused = Object.entries(PACKAGE_OWNERS).flatMap(([name, owners]) =>
      owners.filter((owner) => !PACKAGE_IMPORTS.some(({ from, to }) => to === name && folderOf(from) === owner)).map((owner) => `${owner} ${name}`),
    );
    expect(unused).toEqual([]);
  });

  it('finds a planted breach of each rule (no rule here passes by checking nothing)', () => {
    const planted = (from: string, to: string): Import[] => [...IMPORTS, { from, to }];
    expect(folderCycles(planted('users/user-store.ts', 'credentials/credential-issuer.ts'))).toContain('users -> credentials -> users');
    expect(folderCycles(planted('config/auth-config.ts', 'auth.module.ts'))).toContain('config -> . -> config');
    const breach = (from: string, to: string) => `${from} imports ${to}`;
    expect(rootImportsFromInside(planted('password/password-flows.service.ts', 'auth.service.ts'))).toContain(breach('password/password-flows.service.ts', 'auth.service.ts'));
    expect(importsAgainstTheTiers(planted('http/cookies.ts', 'credentials/credential-delivery.ts'))).toContain(breach('http/cookies.ts', 'credentials/credential-delivery.ts'));
    expect(importsAgainstTheTiers(planted('password/password-flows.service.ts', 'testing/sign-in.ts'))).toContain(breach('password/password-flows.service.ts', 'testing/sign-in.ts'));
    expect(importsOfAnotherFoldersSubfolders(planted('oauth/oauth-attempt.ts', 'credentials/session/session-store.ts'))).toContain(breach('oauth/oauth-attempt.ts', 'credentials/session/session-store.ts'));
    expect(clientReachingTheServer(planted('client/client-core.ts', 'errors/error-codes.ts'), PACKAGE_IMPORTS, [])).toContain(breach('client/client-core.ts', 'errors/error-codes.ts'));
    expect(clientReachingTheServer(IMPORTS, [{ from: 'client/index.ts', to: '@nestjs/common' }], [{ from: 'client/index.ts', to: 'node:crypto' }])).toHaveLength(2);
    expect(credentialsImportingAWayIn(planted('credentials/credential-delivery.ts', 'two-step/mfa-gate.ts'))).toContain(breach('credentials/credential-delivery.ts', 'two-step/mfa-gate.ts'));
    for (const [file, name] of [
      ['rate-limit/rate-limit.providers.ts', 'ioredis'],
      ['persistence/unit-of-work.ts', 'pg'],
      ['persistence/unit-of-work.ts', 'better-sqlite3'],
      ['users/user-store.ts', 'bcrypt'],
    ])
      expect(packageStrays([...PACKAGE_IMPORTS, { from: file, to: name }])).toContain(breach(file, name));
    expect(packageOf('@simplewebauthn/server/helpers')).toBe('@simplewebauthn/server');
    expect(packageOf('ioredis/built/Redis.js')).toBe('ioredis');
  });
});
