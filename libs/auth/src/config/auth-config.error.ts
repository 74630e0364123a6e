/** A configuration value broke a rule; thrown at startup. The message names the field and the rule. */
export class AuthConfigError extends Error {
  override readonly name = 'AuthConfigError';
  readonly code = 'CONFIG_INVALID';

  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field} ${rule}`);
  }
}
