import { CONFUSABLE_PROTOTYPES } from './unicode/confusables.generated.js';

/** confusables.txt: each character that looks like another, to its prototype. */
const PROTOTYPES: ReadonlyMap<string, string> = new Map(
  CONFUSABLE_PROTOTYPES.trim()
    .split(/\s+/)
    .map((mapping) => {
      const [from, to] = mapping.split(':');
      const text = (codePoints: string) => String.fromCodePoint(...codePoints.split('.').map((code) => Number.parseInt(code, 16)));
      return [text(from), text(to)];
    }),
);

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The UTS #39 §4 skeleton of an address already normalised by `normalizeEmail`: two addresses with
 * the same skeleton look alike (`аlice@x.io` with a Cyrillic а, `alıce@x.io` with a dotless ı and
 * `alice@x.io`). For comparison only, never for display or storage as the address.
 *
 * Addresses are compared lower-cased, but prototypes can be upper case (`0` → `O`, Lisu `ꓮ` → `A`):
 * the skeleton is lower-cased, so that `ꓮlice` meets `alice`, and taken once more, as lower-casing
 * can give a character that has a prototype of its own (`M` → `m` → `rn`).
 */
export function emailSkeleton(normalizedEmail: string): string {
  return skeleton(skeleton(normalizedEmail).toLowerCase());
}

/** UTS #39 §4: NFD, without default-ignorable code points, each character to its prototype, NFD again. */
function skeleton(text: string): string {
  const characters = [...text.normalize('NFD').replace(DEFAULT_IGNORABLE, '')];
  return characters.map((character) => PROTOTYPES.get(character) ?? character).join('').normalize('NFD');
}
