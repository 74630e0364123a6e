import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const REPO = join(import.meta.dirname, '../..');

/** README.md, CONTRIBUTING.md and every markdown file under docs/. */
function documentationFiles(): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(folder).flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return walk(path);
      return name.endsWith('.md') ? [path] : [];
    });
  return [join(REPO, 'README.md'), join(REPO, 'CONTRIBUTING.md'), ...walk(join(REPO, 'docs'))];
}

/** The text outside fenced blocks and code spans: links written inside code are code, not links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchors of a markdown file's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, title] of markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = title.trim().toLowerCase().replace(/[^\w\- ]/g, '').replaceAll(' ', '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every relative link of a file as `file: target`, with what is wrong with it, or nothing when it resolves. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const [, target] of prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not a file of the repository
    const [path, anchor] = target.split('#', 2);
    const resolved = path === '' ? file : resolve(dirname(file), path);
    const name = `${relative(REPO, file)}: ${target}`;
    if (!existsSync(resolved)) broken.push(`${name} (no such file)`);
    else if (anchor !== undefined && (!resolved.endsWith('.md') || !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor))) broken.push(`${name} (no such heading)`);
  }
  return broken;
}

describe('the links of the documentation', () => {
  it('has a README, a CONTRIBUTING and guides, reference and decision records under docs/', () => {
    const files = documentationFiles().map((file) => relative(REPO, file));
    for (const folder of ['docs/guides/', 'docs/reference/', 'docs/decisions/']) expect(files.some((file) => file.startsWith(folder))).toBe(true);
  });

  it('points every relative link of README.md, CONTRIBUTING.md and docs/ at an existing file and heading', () => {
    expect(documentationFiles().flatMap(brokenLinks)).toEqual([]);
  });

  it('finds a broken file and a broken heading (the check can fail)', () => {
    expect(prose('[a](b.md) `[c](d.md)`\n```\n[e](f.md)\n```\n')).not.toContain('d.md');
    expect(anchorsOf('# Rate limiting: windows and backends\n## Sizing\n## Sizing\n')).toEqual(new Set(['rate-limiting-windows-and-backends', 'sizing', 'sizing-1']));
  });
});
