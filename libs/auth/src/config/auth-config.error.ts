/** Longest quotation of a wrong value in a message: enough to recognise it. */
const QUOTED_LENGTH = 80;

/**
 * A configuration value broke a rule; thrown at startup. The message names the field, the rule and,
 * except for secrets, the value it got (`baseUrl must be an absolute URL (got "/")`).
 */
export class AuthConfigError extends Error {
  override readonly name = 'AuthConfigError';
  readonly code = 'CONFIG_INVALID';

  /** `got`: the value refused, shown in the message; never pass a secret's value. */
  constructor(
    readonly field: string,
    readonly rule: string,
    got?: unknown,
  ) {
    super(got === undefined ? `${field} ${rule}` : `${field} ${rule} (got ${shown(got)})`);
  }
}

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > QUOTED_LENGTH ? `${value.slice(0, QUOTED_LENGTH)}…` : value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}
