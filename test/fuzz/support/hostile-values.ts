import fc from 'fast-check';

/** A UTF-16 code unit of the surrogate range, alone: malformed Unicode (`!s.isWellFormed()`). */
export const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

/** One code point from any of the 17 Unicode planes (surrogates excluded), so astral planes show up often. */
export const anyPlaneCodePoint = fc
  .integer({ min: 0, max: 16 })
  .chain((plane) => fc.integer({ min: plane * 0x10000, max: plane * 0x10000 + 0xffff }))
  .filter((codePoint) => codePoint < 0xd800 || codePoint > 0xdfff)
  .map((codePoint) => String.fromCodePoint(codePoint));

/** Characters of Unicode categories Cc and Cf that look like nothing (docs/decisions/0006-validation.md: refused in emails). */
export const CONTROL_AND_FORMAT_CHARACTERS = [
  '\u0000', '\u0001', '\u0008', '\u001b', '\u007f', '\u0085', '\u009f',
  '\u00ad', '\u061c', '\u180e', '\u200b', '\u200c', '\u200d', '\u200e', '\u200f',
  '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2060', '\u2061', '\u2066', '\u2069',
  '\ufeff', '\ufff9', '\u{110bd}', '\u{1d173}', '\u{e0001}', '\u{e0041}',
];

/** Characters that trip up normalisers, collations and byte counters. */
const TRICKY_CHARACTERS = ['\u0000', 'Ａ', 'ｅ', 'ﬁ', 'ß', 'İ', 'ı', 'K', '\u0301', '\ufffd', '\uffff', '\ufffe', '\u{10ffff}', '😀', '\u{1f3f3}\u{fe0f}\u200d\u{1f308}', '\\', '"', "'", '%00', '\r\n'];

/** Code points but the surrogates: the indexes of `anyCodePoint`. */
const NON_SURROGATE_CODE_POINTS = 0x110000 - 0x800;

/**
 * One code point, any but a surrogate, as fast-check's `binary` unit draws it (a `nat` over the
 * code points, surrogates skipped), with its unmapper, so that fast-check can still read the
 * strings it favours (`__proto__`, `constructor`) as built of these. Written out because
 * `fc.string({ unit: 'binary' })` maps all 1.1 million code points at its creation to find those
 * strings in it: about a second of CPU for every load of the suite.
 */
const anyCodePoint = fc.nat({ max: NON_SURROGATE_CODE_POINTS - 1 }).map(
  (index) => String.fromCodePoint(index < 0xd800 ? index : index + 0x800),
  (value) => {
    const codePoint = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (codePoint === undefined || String.fromCodePoint(codePoint) !== value || (codePoint >= 0xd800 && codePoint <= 0xdfff)) throw new Error('not one code point');
    return codePoint < 0xd800 ? codePoint : codePoint - 0x800;
  },
);

const unicodeUnit = fc.oneof(
  { weight: 4, arbitrary: anyCodePoint },
  { weight: 3, arbitrary: anyPlaneCodePoint },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: fc.constantFrom(...CONTROL_AND_FORMAT_CHARACTERS, ...TRICKY_CHARACTERS) },
);

/** Text from every plane, with lone surrogates, NUL, controls and format characters mixed in. */
export const unicodeText = (maxLength = 40) => fc.string({ unit: unicodeUnit, maxLength });

/** `text` with `inserted` put somewhere strictly inside it (not trimmed away by a `trim()`). */
export function insertInside(text: string, inserted: string, at: number): string {
  const units = [...text];
  const index = 1 + (at % Math.max(1, units.length - 1));
  return [...units.slice(0, index), inserted, ...units.slice(index)].join('');
}

/** Whether `text` holds a surrogate without its partner (`String.prototype.isWellFormed`, ES2024). */
export function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

/** A string holding at least one lone surrogate (joined pieces may pair up into a valid character: those are dropped). */
export const textWithLoneSurrogate = fc
  .tuple(unicodeText(20), fc.array(loneSurrogate, { minLength: 1, maxLength: 3 }), unicodeText(20))
  .map(([a, surrogates, b]) => `${a}${surrogates.join('')}${b}`)
  .filter(hasLoneSurrogate);

/** A string holding at least one NUL character. */
export const textWithNul = fc.tuple(unicodeText(20), unicodeText(20)).map(([a, b]) => `${a}\u0000${b}`);

/** Numbers at and past the edges of what JSON and JavaScript hold. */
export const edgeNumber = fc.oneof(
  fc.constantFrom(0, -0, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER + 2, -(2 ** 63), 2 ** 64, 0.1 + 0.2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** An array or object nested `depth` levels deep (1,500 levels are ~3 KB of JSON). */
export function nested(depth: number, kind: 'array' | 'object', leaf: unknown = 'x'): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

export const deepNesting = fc
  .record({ depth: fc.integer({ min: 2, max: 2500 }), kind: fc.constantFrom('array' as const, 'object' as const) })
  .map(({ depth, kind }) => shownAs(nested(depth, kind) as object, `<${kind} nested ${depth} levels>`));

/** Makes fast-check print `value` as `label` in a counterexample (JSON.stringify ignores the symbol). */
export function shownAs<T extends object>(value: T, label: string): T {
  Object.defineProperty(value, fc.toStringMethod, { value: () => label, enumerable: false });
  return value;
}

/** A JSON value with strings from every plane. */
export const unicodeJson = fc.jsonValue({ maxDepth: 3, stringUnit: unicodeUnit });

/** Anything but a string: what a string field must refuse with 400, however deeply it nests. */
export const nonString = fc.oneof(
  fc.boolean(),
  edgeNumber,
  fc.array(unicodeJson, { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), unicodeJson, { maxKeys: 4, noNullPrototype: true }),
  deepNesting,
);

/** Keys that reach the prototype chain when an object is built naively (docs/decisions/0006-validation.md: refused like any unknown field). */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', 'isPrototypeOf', '__defineGetter__'];

/** Any value a field of a request body may be sent with. */
export const hostileValue = fc.oneof(
  { weight: 3, arbitrary: unicodeText() },
  { weight: 1, arbitrary: unicodeText(3000) },
  { weight: 1, arbitrary: textWithLoneSurrogate },
  { weight: 1, arbitrary: textWithNul },
  { weight: 2, arbitrary: nonString },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** An object with own properties in this order, `__proto__` included as a plain key. */
export function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}
