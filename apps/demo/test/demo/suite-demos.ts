// Jest's hooks for the demo specs, apart from demo-process.ts, which the benchmarks import outside Jest.
import { afterAll, beforeAll } from '@jest/globals';
import { startTogether } from './demo-process.js';

/**
 * Runs a suite's starts at once in its beforeAll (see startTogether) and stops them in its
 * afterAll. The record it returns is filled when the beforeAll is done.
 */
export function startForSuite<Name extends string, Started extends { stop(): Promise<void> }>(starts: Record<Name, () => Promise<Started>>): Partial<Record<Name, Started>> {
  const started: Partial<Record<Name, Started>> = {};
  beforeAll(async () => {
    Object.assign(started, await startTogether(starts));
  }, 90_000);
  afterAll(async () => {
    await Promise.all(Object.values<Started | undefined>(started).map((each) => each?.stop()));
  });
  return started;
}
