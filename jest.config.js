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

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
  moduleNameMapper: {
    '^#svc/auth$': '<rootDir>/libs/auth/src/index.ts',
    '^#svc/auth/(health|openapi|testing)$': '<rootDir>/libs/auth/src/$1/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/apps/**/*.spec.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testSequencer: '<rootDir>/test/support/suite-sequencer.cjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  maxWorkers: 2,
  testTimeout: 30000,
};
