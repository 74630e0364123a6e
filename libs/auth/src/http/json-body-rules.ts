/** Deeper than any body the library accepts; also far below what recursive transformers survive. */
const MAX_DEPTH = 16;

/**
 * What is wrong with a parsed JSON body before its schema looks at it (docs/decisions/0006-validation.md):
 * - a key the schema does not have, as JSON.parse made it: `__proto__`, `constructor` and
 *   `toString` are unknown fields like any other, never silently dropped by the transformer;
 * - a string, or a key, with NUL (a C string ends there: bcrypt and PostgreSQL would see less) or
 *   malformed Unicode (a lone surrogate turns into U+FFFD in UTF-8, so different passwords would
 *   hash alike);
 * - nesting deeper than MAX_DEPTH, whatever the field.
 * One problem per field; an empty list when the body may go on to its schema.
 */
export function jsonBodyProblems(body: Record<string, unknown>, fields: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(body)) {
    if (!fields.has(key)) problems.push(`property ${printable(key)} should not exist`);
    else {
      const problem = valueProblem(body[key]);
      if (problem) problems.push(`${key} ${problem}`);
    }
  }
  return problems;
}

/** Walks a value without recursion, so no input can exhaust the stack. */
function valueProblem(root: unknown): string | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value: root, depth: 1 }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { value, depth } = item;
    if (typeof value === 'string') {
      const problem = stringProblem(value);
      if (problem) return problem;
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_DEPTH) return `must not be nested more than ${MAX_DEPTH} levels deep`;
      for (const [key, child] of Object.entries(value)) {
        const problem = stringProblem(key);
        if (problem) return problem;
        pending.push({ value: child, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

function stringProblem(value: string): string | undefined {
  if (value.includes('\0')) return 'must not contain NUL characters';
  if (!value.isWellFormed()) return 'must not contain malformed Unicode (lone surrogates)';
  return undefined;
}

/** A key as it may appear in a message: never a raw control character or lone surrogate. */
function printable(key: string): string {
  const shown = JSON.stringify(key.slice(0, 64)).slice(1, -1);
  return key.length > 64 ? `${shown}...` : shown;
}
