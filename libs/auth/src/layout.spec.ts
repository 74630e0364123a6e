import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The layout the README's "Development" section describes, checked on the imports themselves:
 * credentials and login methods are siblings, no folder is tied to another both ways, and a
 * protocol library is imported by the folder of its protocol only.
 */
const ROOT = path.dirname(fileURLToPath(import.meta.url));

interface Import {
  from: string;
  to: string;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path.relative(ROOT, full)] : [];
  });
}

const FILES = sourceFiles(ROOT);

function importsOf(file: string): { relative: string[]; packages: string[] } {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms), ...text.matchAll(/\bimport\('([^']+)'\)/g)].map((match) => match[1]);
  return {
    relative: specifiers.filter((s) => s.startsWith('.')).map((s) => path.normalize(path.join(path.dirname(file), s)).replace(/\.js$/, '.ts')),
    packages: specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:')),
  };
}

/** The folder a file belongs to: `credentials/jwt`, `login/oidc`, `rate-limit`; the root files are `.`. */
function folderOf(file: string): string {
  const parts = file.split(path.sep);
  if (parts.length === 1) return '.';
  if ((parts[0] === 'login' || parts[0] === 'credentials') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0];
}

const IMPORTS: Import[] = FILES.flatMap((file) => importsOf(file).relative.map((to) => ({ from: file, to })));

describe('the layout of libs/auth/src', () => {
  it('has no two folders that import each other, directly or through others', () => {
    // The root files are the module itself (auth.module.ts, index.ts) and the tokens every part reads.
    const edges = new Map<string, Set<string>>();
    for (const { from, to } of IMPORTS) {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (a === b || a === '.' || b === '.') continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
    }
    const cycles: string[] = [];
    const visit = (folder: string, trail: string[]) => {
      for (const next of edges.get(folder) ?? []) {
        if (trail.includes(next)) cycles.push([...trail.slice(trail.indexOf(next)), next].join(' -> '));
        else visit(next, [...trail, next]);
      }
    };
    for (const folder of edges.keys()) visit(folder, [folder]);
    expect(cycles).toEqual([]);
  });

  it('keeps credentials and login methods apart: a login method sees a credential only through its contracts', () => {
    const crossings = IMPORTS.filter(({ from, to }) => {
      if (from.startsWith(`credentials${path.sep}`)) return to.startsWith(`login${path.sep}`);
      if (from.startsWith(`login${path.sep}`)) return to.startsWith(`credentials${path.sep}`) && folderOf(to) !== 'credentials';
      return false;
    });
    expect(crossings).toEqual([]);
  });

  it('imports each protocol library from the folder of its protocol only', () => {
    const owners: Record<string, (file: string) => boolean> = {
      'openid-client': (file) => file.startsWith('oauth') || file.startsWith('oidc'),
      // The library verifies its access tokens with jose; passport stays the application's (README, "Decisions").
      'passport-jwt': () => false,
      passport: () => false,
      '@nestjs/passport': () => false,
      bcrypt: (file) => folderOf(file) === 'password',
      '@simplewebauthn/server': (file) => folderOf(file) === 'passkeys',
      // Opened from `{ url }` for the limiter and the principal cache alike (README, "Rate limiting").
      ioredis: (file) => folderOf(file) === 'redis',
      otpauth: (file) => folderOf(file) === 'two-step',
      qrcode: (file) => folderOf(file) === 'two-step',
      pg: () => false,
    };
    const strays = FILES.flatMap((file) => importsOf(file).packages.filter((name) => owners[name] && !owners[name](file)).map((name) => `${file} imports ${name}`));
    expect(strays).toEqual([]);
  });
});
