import { describe, expect, it } from '@jest/globals';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath, SHARED_CHROMIUM_ENV } from '../../../../../test/support/global-setup.js';

export { chromiumPath } from '../../../../../test/support/global-setup.js';

/**
 * The run's shared Chromium when globalSetup started one (each suite's contexts are its own, and
 * `close()` only disconnects the suite); otherwise a Chromium of the suite's own.
 */
export function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium: apt-get install -y chromium');
  const shared = process.env[SHARED_CHROMIUM_ENV];
  if (shared) return chromium.connect(shared);
  return chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
}

/**
 * Declares the suite when Chromium is installed; otherwise says loudly that it is SKIPPED, and
 * declares one test that fails under REQUIRE_BROWSER=1 (what .ci/run sets).
 */
export function describeInChromium(name: string, suite: () => void): void {
  if (chromiumPath()) {
    describe(name, suite);
    return;
  }
  if (process.env.REQUIRE_BROWSER !== '1') console.warn(`\n!!! Chromium is not installed (apt-get install -y chromium): "${name}" is SKIPPED !!!\n`);
  describe(name, () => {
    it('did not run: Chromium is not installed (REQUIRE_BROWSER=1 makes this a failure)', () => {
      expect(process.env.REQUIRE_BROWSER).not.toBe('1');
    });
  });
}
