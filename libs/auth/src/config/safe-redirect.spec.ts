import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { safeRedirectPath } from './safe-redirect.js';

const APP = 'https://app.example';

/** What a browser does with the Location header: the path it lands on, or another origin. */
function landing(location: string): URL {
  return new URL(location, `${APP}/auth/oauth2/acme/callback`);
}

describe('safeRedirectPath', () => {
  it.each(['/', '/settings', '/a/b?tab=1#top', '/caf%C3%A9', '/a/../b'])('keeps the same-origin path %j', (path) => {
    expect(landing(safeRedirectPath(path)!).origin).toBe(APP);
  });

  it.each(['/.//evil.example', '/a/..//evil.example', '/%2e//evil.example', '/%2E%2E//evil.example', '/%2e%2e/%2F/evil.example', '/./\\evil.example'])(
    'refuses %j, whose normalised form would start with //',
    (path) => {
      expect(safeRedirectPath(path)).toBeNull();
    },
  );

  it('whatever it is given, it answers null or a path that lands on the same origin, even decoded once more', () => {
    const piece = fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom('/', '.', '..', '%2e', '%2f', '\\') },
      { weight: 1, arbitrary: fc.constantFrom('evil.example', 'a', ':', '@', '?', '#', '%25', '%5c', '%09', '%00', '\t', 'https:') },
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 7 }).map((pieces) => `/${pieces.join('')}`), (value) => {
        const path = safeRedirectPath(value);
        if (path === null) return;
        expect(path.startsWith('/') && !path.startsWith('//')).toBe(true);
        expect(landing(path).origin).toBe(APP);
        expect(landing(decodeURIComponent(path)).origin).toBe(APP);
      }),
      { numRuns: 2000 },
    );
  });
});
