import { SCRIPT_NAMES } from './unicode/script-names.generated.js';

/**
 * One test per script this runtime's regular expressions know (a newer Unicode's scripts are
 * skipped on an older Node: none of their characters is assigned there). `extensions` is a
 * character's Script_Extensions, the scripts it is used with; `script` its own Script, for messages.
 */
const SCRIPT_TESTS = SCRIPT_NAMES.flatMap((script) => {
  try {
    return [{ script, extensions: new RegExp(`^\\p{Script_Extensions=${script}}$`, 'u'), own: new RegExp(`^\\p{Script=${script}}$`, 'u') }];
  } catch {
    return [];
  }
});

/**
 * UTS #39 §5.1: Han-based writing systems mix scripts by design, so a character's script set is
 * augmented with the writing systems that use it: Japanese (Jpan), Korean (Kore), Han with
 * Bopomofo (Hanb).
 */
const AUGMENTED: Readonly<Record<string, readonly string[]>> = {
  Han: ['Jpan', 'Kore', 'Hanb'],
  Hiragana: ['Jpan'],
  Katakana: ['Jpan'],
  Hangul: ['Kore'],
  Bopomofo: ['Hanb'],
};

/** UTS #39 §5.2 "Highly Restrictive": Latin may join these, and only these, in one label. */
const HIGHLY_RESTRICTIVE_COVERS: readonly (readonly string[])[] = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

/**
 * Null when each part of an address normalised by `normalizeEmail` (the local part, each label of
 * the domain) is written in one script, at UTS #39 §5.2's "Highly Restrictive" level; otherwise
 * what is wrong. `аlice@x.io` (a Cyrillic а among Latin letters) and `alice@exаmple.io` are refused;
 * `алиса@пример.рф`, digits and `.`, `-`, `_`, `+` (Common to every script) are not.
 */
export function mixedScriptProblem(normalizedEmail: string): string | null {
  const at = normalizedEmail.lastIndexOf('@');
  const parts = [
    { name: 'the local part', text: normalizedEmail.slice(0, Math.max(at, 0)) },
    ...normalizedEmail
      .slice(at + 1)
      .split('.')
      .map((text) => ({ name: `the domain label "${text}"`, text })),
  ];
  for (const part of parts) {
    const scripts = mixedScripts(part.text);
    if (scripts) return `${part.name} mixes the ${scripts.join(' and ')} scripts; use one script in each part of the address`;
  }
  return null;
}

/** The scripts a text mixes, or null when it qualifies as Highly Restrictive (UTS #39 §5.2). */
function mixedScripts(text: string): string[] | null {
  if (/^[\x00-\x7f]*$/.test(text)) return null; // §5.2 "ASCII-Only", the level of most addresses
  const scriptSets = [...text].map(scriptsOf).filter((scripts) => !scripts.includes('Common') && !scripts.includes('Inherited'));
  if (scriptSets.length === 0) return null;
  const resolved = scriptSets.map(augmented).reduce((common, scripts) => common.filter((script) => scripts.includes(script)));
  if (resolved.length > 0) return null; // §5.1: a script every character is written in
  if (HIGHLY_RESTRICTIVE_COVERS.some((cover) => scriptSets.every((scripts) => scripts.some((script) => cover.includes(script))))) return null;
  const own = [...text].map((character) => SCRIPT_TESTS.find((test) => test.own.test(character))?.script ?? 'Unknown');
  return [...new Set(own.filter((script) => script !== 'Common' && script !== 'Inherited'))];
}

/**
 * A character's Script_Extensions: `a` is Latin, `а` Cyrillic, `ー` both Hiragana and Katakana,
 * `1` and `-` Common (they go with any script), a combining mark Inherited.
 */
function scriptsOf(character: string): string[] {
  return SCRIPT_TESTS.filter(({ extensions }) => extensions.test(character)).map(({ script }) => script);
}

function augmented(scripts: string[]): string[] {
  return [...scripts, ...scripts.flatMap((script) => AUGMENTED[script] ?? [])];
}
