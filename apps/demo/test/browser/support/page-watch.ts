import type { BrowserContext } from 'playwright-core';

/** A Content-Security-Policy violation, as the page's `securitypolicyviolation` event or the console reported it. */
export interface CspViolation {
  source: 'event' | 'console';
  page: string;
  detail: string;
}

/** Runs in every page before its own scripts (a string: this project's TypeScript has no DOM types). */
const REPORT_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (event) =>
  window.reportCspViolation(event.violatedDirective + ' refused ' + event.blockedURI));`;

/** What went wrong in a browser context's pages, collected while a test drives them. */
export interface PageTrouble {
  cspViolations: CspViolation[];
  /** Uncaught exceptions of the pages' scripts. */
  pageErrors: string[];
}

/**
 * Listens to every page of `context`: the DOM's `securitypolicyviolation` event (reported through
 * a binding the init script calls), console messages about the Content Security Policy, uncaught
 * errors. Call before the first page opens.
 */
export async function watchPages(context: BrowserContext): Promise<PageTrouble> {
  const trouble: PageTrouble = { cspViolations: [], pageErrors: [] };
  await context.exposeBinding('reportCspViolation', ({ page }, detail: string) => {
    trouble.cspViolations.push({ source: 'event', page: page.url(), detail });
  });
  await context.addInitScript({ content: REPORT_VIOLATIONS });
  context.on('console', (message) => {
    if (/content security policy/i.test(message.text())) trouble.cspViolations.push({ source: 'console', page: message.page()?.url() ?? '', detail: message.text() });
  });
  context.on('weberror', (error) => trouble.pageErrors.push(`${error.page()?.url() ?? ''}: ${error.error().message}`));
  return trouble;
}
