import { normalizeEmail } from './email.js';
import { mixedScriptProblem } from './mixed-script.js';

const problemOf = (email: string) => mixedScriptProblem(normalizeEmail(email));

describe('mixedScriptProblem', () => {
  it.each([
    ['a Cyrillic а among Latin letters in the local part', '\u0430lice@x.io', 'the local part mixes the Cyrillic and Latin scripts'],
    ['a Cyrillic а in a domain label', 'alice@ex\u0430mple.io', 'the domain label "ex\u0430mple" mixes the Latin and Cyrillic scripts'],
    ['a Cyrillic о in the top-level label', 'alice@example.c\u043em', 'the domain label "c\u043em" mixes the Latin and Cyrillic scripts'],
    ['Greek with Latin', 'alfa-\u03b2\u03ae\u03c4\u03b1@x.io', 'the local part mixes the Latin and Greek scripts'],
    ['Greek with Cyrillic', '\u03b1\u0431@x.io', 'the local part mixes the Greek and Cyrillic scripts'],
    ['Arabic with Latin', 'abc\u0639@x.io', 'the local part mixes the Latin and Arabic scripts'],
  ])('refuses %s', (_kind, email, message) => {
    expect(problemOf(email)).toContain(message);
  });

  it.each([
    ['Latin', 'alice@x.io'],
    ['Latin with digits and . - _ +', 'a.b-c_d+e@x-y.io'],
    ['digits only', '0123456789@42.io'],
    ['Cyrillic throughout', 'алиса@пример.рф'],
    ['a Cyrillic local part at a Latin domain', 'алиса@example.io'],
    ['Cyrillic with digits', 'пример1-2@x.io'],
    ['Greek throughout', 'αλφα@παράδειγμα.ελ'],
    ['Latin with a combining accent', 'jose\u0301@x.io'],
    ['Japanese: Latin, Han and Hiragana', 'tanaka田中さん@x.jp'],
    ['Japanese domain labels', 'user@例え.テスト'],
    ['Korean: Latin with Hangul', 'kim김@x.kr'],
    ['Chinese: Latin, Han and Bopomofo', 'zhang张ㄅ@x.cn'],
  ])('accepts %s', (_kind, email) => {
    expect(problemOf(email)).toBeNull();
  });
});
