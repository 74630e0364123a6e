import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath, SHARED_CHROMIUM_ENV } from '../../../../../test/support/global-setup.js';
import { stopSuiteDemos } from './suite-demos.js';
import { openWatchedPage, type WatchedPage, type WatchedPageOptions } from './watched-context.js';

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

/** The suite's connection to Chromium (launchChromium), made by its first block, closed after its last test (closeTheSuiteAfterAll). */
let suiteBrowser: Promise<Browser> | undefined;
/** Whether the suite file called closeTheSuiteAfterAll. */
let closedBySuite = false;

/**
 * A browser suite's afterAll, at the top of its file (apps/demo/test/browser/<group>.e2e-spec.ts,
 * which imports the case modules): after its last test, stops the demos its blocks shared
 * (suite-demos.ts) and closes its Chromium connection.
 */
export function closeTheSuiteAfterAll(): void {
  closedBySuite = true;
  afterAll(async () => {
    const browser = suiteBrowser;
    suiteBrowser = undefined;
    await stopSuiteDemos();
    await (await browser?.catch(() => undefined))?.close();
  });
}

/** A demo in this process or another: what a browser suite stops after its tests. */
interface Stoppable {
  stop(): Promise<void>;
}

/** A test's page on the demo of its block. */
export interface DemoPage<Demo> {
  demo: Demo;
  watched: WatchedPage;
  page: Page;
}

/** What a `describeInChromium` suite uses: its browser, and pages that fail their test on trouble. */
export interface InChromium {
  /** The suite's browser, from the suite's first hook on. */
  readonly browser: Browser;
  /**
   * A fresh watched page (openWatchedPage) for the running test, closed after it; the test fails on
   * a CSP violation or a script error in any page it opened this way.
   */
  openPage(options?: WatchedPageOptions): Promise<WatchedPage>;
  /**
   * In the enclosing block: the demo `start` gives, started before its tests and stopped after
   * them, and a fresh page (`openPage`) for each test, both handed to `use` before each test.
   */
  demoPageForEachTest<Demo extends Stoppable>(start: () => Promise<Demo>, use: (opened: DemoPage<Demo>) => void, options?: WatchedPageOptions): void;
  /**
   * As demoPageForEachTest, on a demo the suite shares (`suiteDemo`, suite-demos.ts): taken before
   * the block's tests, stopped by the suite after its last.
   */
  sharedDemoPageForEachTest<Demo>(take: () => Promise<Demo>, use: (opened: DemoPage<Demo>) => void, options?: WatchedPageOptions): void;
}

/**
 * A block of a browser suite: the suite's Chromium connection (to the run's shared Chromium, or a
 * Chromium of the suite's own) before its tests; the pages of each test closed and checked after
 * it. Without Chromium, says loudly that the block is SKIPPED, and declares one test that fails
 * under REQUIRE_BROWSER=1 (what .ci/run sets).
 */
export function describeInChromium(name: string, suite: (chromium: InChromium) => void): void {
  if (!closedBySuite) throw new Error(`"${name}": the suite file calls closeTheSuiteAfterAll() before it imports its case modules`);
  if (chromiumPath()) {
    describe(name, () => suite(chromiumForTheSuite()));
    return;
  }
  if (process.env.REQUIRE_BROWSER !== '1') console.warn(`\n!!! Chromium is not installed (apt-get install -y chromium): "${name}" is SKIPPED !!!\n`);
  describe(name, () => {
    it('did not run: Chromium is not installed (REQUIRE_BROWSER=1 makes this a failure)', () => {
      expect(process.env.REQUIRE_BROWSER).not.toBe('1');
    });
  });
}

/** Registers the suite's hooks in the block being declared. */
function chromiumForTheSuite(): InChromium {
  let browser: Browser | undefined;
  let opened: WatchedPage[] = [];
  beforeAll(async () => {
    suiteBrowser ??= launchChromium();
    browser = await suiteBrowser;
  });
  afterEach(async () => {
    const watched = opened;
    opened = [];
    await Promise.all(watched.map(({ context }) => context.close()));
    for (const { trouble } of watched) {
      expect(trouble.cspViolations).toEqual([]);
      expect(trouble.pageErrors).toEqual([]);
    }
  });
  const fixture: InChromium = {
    get browser(): Browser {
      if (!browser) throw new Error('the browser starts in the suite\'s first hook: use it in a hook or a test');
      return browser;
    },
    async openPage(options) {
      const watched = await openWatchedPage(fixture.browser, options);
      opened.push(watched);
      return watched;
    },
    demoPageForEachTest<Demo extends Stoppable>(start: () => Promise<Demo>, use: (opened: DemoPage<Demo>) => void, options?: WatchedPageOptions) {
      const demo = pageForEachTest(start, use, options);
      afterAll(async () => {
        await demo()?.stop();
      });
    },
    sharedDemoPageForEachTest(take, use, options) {
      pageForEachTest(take, use, options);
    },
  };
  /** The block's demo before its tests, a fresh page for each test; the demo, for the caller to stop. */
  function pageForEachTest<Demo>(start: () => Promise<Demo>, use: (opened: DemoPage<Demo>) => void, options?: WatchedPageOptions): () => Demo | undefined {
    let demo: Demo | undefined;
    beforeAll(async () => {
      demo = await start();
    });
    beforeEach(async () => {
      const watched = await fixture.openPage(options);
      use({ demo: demo!, watched, page: watched.page });
    });
    return () => demo;
  }
  return fixture;
}
