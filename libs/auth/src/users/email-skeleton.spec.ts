import { normalizeEmail } from './email.js';
import { emailSkeleton } from './email-skeleton.js';
import { CONFUSABLE_PROTOTYPES, CONFUSABLES_UNICODE_VERSION } from './unicode/confusables.generated.js';

const skeletonOf = (email: string) => emailSkeleton(normalizeEmail(email));

describe('emailSkeleton', () => {
  it.each([
    ['a Cyrillic а (U+0430)', '\u0430lice@x.io'],
    ['a dotless ı (U+0131)', 'al\u0131ce@x.io'],
    ['a Lisu ꓮ (U+A4EE), whose prototype is the capital A', '\ua4eelice@x.io'],
    ['a combining grapheme joiner (default-ignorable)', 'al\u034fice@x.io'],
    ['a Cyrillic domain letter', 'alice@\u0445.io'],
  ])('gives %s the skeleton of alice@x.io', (_kind, lookalike) => {
    expect(skeletonOf(lookalike)).toBe(skeletonOf('alice@x.io'));
  });

  it('gives a whole-script Cyrillic look-alike the skeleton of the Latin address', () => {
    // р а у р а (U+0440 U+0430 U+0443 U+0440 U+0430) and a Latin l
    expect(skeletonOf('\u0440\u0430\u0443\u0440\u0430l@x.io')).toBe(skeletonOf('paypal@x.io'));
  });

  it('tells different addresses apart', () => {
    expect(skeletonOf('alice@x.io')).not.toBe(skeletonOf('bob@x.io'));
    expect(skeletonOf('alice@x.io')).not.toBe(skeletonOf('alice@y.io'));
    expect(skeletonOf('алиса@пример.рф')).not.toBe(skeletonOf('alice@x.io'));
  });

  it('leaves an ASCII address of prototypes as it is', () => {
    expect(skeletonOf('bob.lee+news_2@x-y.io')).toBe('bob.lee+news_2@x-y.io');
  });

  it('holds ASCII look-alikes alike too, as confusables.txt does: rn and m, 0 and o, 1 and l', () => {
    expect(skeletonOf('rnike@x.io')).toBe(skeletonOf('mike@x.io'));
    expect(skeletonOf('b0b@x.io')).toBe(skeletonOf('bob@x.io'));
    expect(skeletonOf('a1ice@x.io')).toBe(skeletonOf('alice@x.io'));
  });

  it(`is the same when taken again, for every character of confusables.txt (Unicode ${CONFUSABLES_UNICODE_VERSION})`, () => {
    const sources = CONFUSABLE_PROTOTYPES.trim()
      .split(/\s+/)
      .map((mapping) => String.fromCodePoint(Number.parseInt(mapping.split(':')[0], 16)));
    expect(sources.length).toBeGreaterThan(6000);
    const unstable = sources.map(normalizeEmail).filter((text) => emailSkeleton(emailSkeleton(text)) !== emailSkeleton(text));
    expect(unstable).toEqual([]);
  });
});
