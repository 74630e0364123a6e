import { describe, expect, it } from '@jest/globals';
import { normalisesToTheVerifiedAddress } from './verified-email.js';

describe('normalisesToTheVerifiedAddress', () => {
  it.each(['alice@x.io', 'Alice@X.io', 'ALICE@X.IO', 'élise@x.io', 'δοκιμή@παράδειγμα.δοκιμή', '用户@例子.广告'])('keeps %s: at most its ASCII case changes', (email) => {
    expect(normalisesToTheVerifiedAddress(email)).toBe(true);
  });

  it.each([
    ['fullwidth letters', 'ＡＬＩＣＥ@x.io'],
    ['a fullwidth lower-case letter', 'ａlice@x.io'],
    ['a ligature', 'ﬁnn@x.io'],
    ['the Kelvin sign', '\u212Aate@x.io'],
    ['a decomposed accent', 'e\u0301lise@x.io'],
    ['a non-ASCII upper-case letter', 'Élise@x.io'],
    ['a dotted capital I', '\u0130van@x.io'],
    ['a leading space', ' alice@x.io'],
    ['a superscript digit', 'alice\u00b2@x.io'],
  ])('refuses %s: normalising names another address', (_case, email) => {
    expect(normalisesToTheVerifiedAddress(email)).toBe(false);
  });
});
