// Module hooks for ts-register.mjs: `./x.js` resolves to `./x.ts` when only that exists, and
// `.ts` files outside node_modules are compiled by @swc/core (decorator metadata included).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from '@swc/core';
import { swcOptions as testSwcOptions } from '../jest.config.js';

const swcOptions = { ...testSwcOptions, sourceMaps: 'inline' };

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('./') || specifier.startsWith('../');
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !relative || !specifier.endsWith('.js')) throw error;
    return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/')) return nextLoad(url, context);
  const filename = fileURLToPath(url);
  const { code } = await transform(await readFile(filename, 'utf8'), { ...swcOptions, filename });
  return { format: 'module', source: code, shortCircuit: true };
}
