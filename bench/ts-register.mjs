// Runs TypeScript sources with Node directly, compiled on load by @swc/core with the same
// settings as jest.config.js: node --import ./bench/ts-register.mjs bench/rate-limit.bench.ts
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
