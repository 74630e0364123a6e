import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where `npm run build` puts the page's bundle (scripts/build-demo-page.mjs): dist/apps/demo/page,
 * seen from the built controller (dist/apps/demo/src/page) or from its source (apps/demo/src/page,
 * as the browser suites run it).
 */
const CANDIDATES = ['../../page/', '../../../../dist/apps/demo/page/'].map((relative) => fileURLToPath(new URL(relative, import.meta.url)));

/** A built file of the page: its text and its type. */
export interface DemoPageAsset {
  text: string;
  contentType: string;
}

let assets: ReadonlyMap<string, DemoPageAsset> | undefined;

/** The page's built script files by name (main.js, its chunks, their source maps), read once; empty before a build. */
export function demoPageAssets(): ReadonlyMap<string, DemoPageAsset> {
  assets ??= readAssets();
  return assets;
}

function readAssets(): ReadonlyMap<string, DemoPageAsset> {
  const directory = CANDIDATES.find((candidate) => existsSync(`${candidate}main.js`));
  const found = new Map<string, DemoPageAsset>();
  if (!directory) return found;
  for (const name of readdirSync(directory)) {
    if (name.endsWith('.js')) found.set(name, { text: readFileSync(directory + name, 'utf8'), contentType: 'text/javascript; charset=utf-8' });
    else if (name.endsWith('.js.map')) found.set(name, { text: readFileSync(directory + name, 'utf8'), contentType: 'application/json; charset=utf-8' });
  }
  return found;
}
