import { describe, expect, it } from '@jest/globals';
import { HookAbort } from './hook-abort.js';

describe('HookAbort', () => {
  it('refuses with 403 by default, or the 4xx it is given', () => {
    expect(new HookAbort().status).toBe(403);
    expect(new HookAbort('Slow down', 429).status).toBe(429);
  });

  it.each([200, 302, 399, 500, 503, 42.5])('is a TypeError with status %s: a refusal is never answered as success or outage', (status) => {
    expect(() => new HookAbort('no', status)).toThrow(new TypeError(`svc: HookAbort status must be a 4xx status, got ${status}`));
  });
});
