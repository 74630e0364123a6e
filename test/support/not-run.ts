import { describe, it } from '@jest/globals';

/**
 * Registers a suite whose engine is unreachable as a visible to-do, so the summary shows what did
 * not run (the engine check has already warned, and under REQUIRE_* it throws instead).
 */
export function describeNotRun(title: string, reason: string): void {
  describe(title, () => {
    it.todo(`NOT RUN: ${reason}`);
  });
}
