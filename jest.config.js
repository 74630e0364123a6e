import { fileURLToPath } from 'node:url';

/**
 * Jest 30 in ESM mode, TypeScript through @swc/jest. `swcOptions` is also what bench/ts-hooks.mjs
 * compiles with, so benchmarks run the code exactly as the tests do.
 */
export const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
    target: 'es2022',
  },
  module: { type: 'es6' },
};

const rootDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * The `system` project: suites that start processes (the demo, SQLite and Redis instances, the
 * installed package), drive a browser, or stop and cut the real services (test/fault). A folder
 * (ending in `/`) or one suite file. The demo's own suites live with it, under apps/demo/test.
 */
const SYSTEM_SUITES = [
  'apps/demo/test/demo/',
  'apps/demo/test/browser/',
  'apps/demo/test/multi-instance/',
  'test/package/',
  'test/fault/',
  'test/rate-limit/sqlite-processes.e2e-spec.ts',
  'test/rate-limit/processes.e2e-spec.ts',
  'test/principal-cache/processes.e2e-spec.ts',
];

/** What every project shares: ESM, the transform and the module mapping. */
const project = {
  rootDir,
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
  moduleNameMapper: {
    '^#svc/auth$': '<rootDir>/libs/auth/src/index.ts',
    '^#svc/auth/(client|health|openapi|passport|testing)$': '<rootDir>/libs/auth/src/$1/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
};

const escape = (path) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Three projects: `unit`, the specs next to the code; `e2e`, suites running applications
 * in-process (the library's in test/suites, each importing a few scenario folders of test/, and the
 * demo's under apps/demo/test); `system`, as above.
 * `npm test` runs them all; SVC_TEST_PROJECTS=unit,e2e (as `npm run test:quick` sets it) runs some. An environment variable rather than Jest's
 * `--selectProjects`, which takes every argument after it as a project name, paths included.
 */
const selected = process.env.SVC_TEST_PROJECTS?.split(',').map((name) => name.trim());

const projects = [
  { ...project, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
  {
    ...project,
    displayName: 'e2e',
    testMatch: ['<rootDir>/test/suites/*.e2e-spec.ts', '<rootDir>/apps/*/test/**/*.e2e-spec.ts'],
    testPathIgnorePatterns: ['/node_modules/', ...SYSTEM_SUITES.map((path) => `^<rootDir>/${escape(path)}`)],
  },
  { ...project, displayName: 'system', testMatch: SYSTEM_SUITES.map((path) => (path.endsWith('/') ? `<rootDir>/${path}**/*.e2e-spec.ts` : `<rootDir>/${path}`)) },
];

const unknown = selected?.filter((name) => !projects.some((one) => one.displayName === name)) ?? [];
if (unknown.length > 0) throw new TypeError(`SVC_TEST_PROJECTS names no project ${unknown.join(', ')}: unit, e2e, system`);

export default {
  projects: selected ? projects.filter((one) => selected.includes(one.displayName)) : projects,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testSequencer: '<rootDir>/test/support/suite-sequencer.cjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  maxWorkers: 2,
  testTimeout: 30000,
};
