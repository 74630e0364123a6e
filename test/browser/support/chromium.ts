import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's package (`apt-get install -y chromium`); CHROMIUM_PATH names another build. Never a downloaded browser. */
const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** Headless, no GPU, no sandbox (Chromium's sandbox refuses to run as root, as in CI), nothing phoning home (no background networking, component updates, sync, first-run or QUIC). */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export function chromiumPath(): string | undefined {
  return CANDIDATES.find((path): path is string => path !== undefined && path !== '' && existsSync(path));
}

export function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium: apt-get install -y chromium');
  return chromium.launch({ executablePath, args: FLAGS });
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
