import { registerDecorator, type ValidationArguments } from 'class-validator';

/** Passwords are compared in NFKC form: the same password typed on any keyboard matches (docs/decisions/0006-validation.md). */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

/**
 * Minimum counted in characters (code points, after NFKC); maximum in UTF-8 bytes, because bcrypt
 * reads no more than 72 bytes and a longer password is refused, never truncated (docs/decisions/0006-validation.md).
 */
export function passwordProblem(password: unknown, rules: { minLength: number; maxLength: number }, field = 'password'): string | undefined {
  if (typeof password !== 'string') return `${field} must be a string`;
  const normalized = normalizePassword(password);
  if ([...normalized].length < rules.minLength) return `${field} must be at least ${rules.minLength} characters`;
  if (Buffer.byteLength(normalized, 'utf8') > rules.maxLength) return `${field} must be at most ${rules.maxLength} bytes (UTF-8)`;
  if (normalized.includes('\0')) return `${field} must not contain NUL characters`;
  return undefined;
}

/** class-validator form of `passwordProblem`, for the request schemas. */
export function IsPassword(rules: { minLength: number; maxLength: number }): PropertyDecorator {
  return (target, property) =>
    registerDecorator({
      name: 'isPassword',
      target: target.constructor,
      propertyName: property as string,
      validator: {
        validate: (value: unknown) => passwordProblem(value, rules) === undefined,
        defaultMessage: (args?: ValidationArguments) => passwordProblem(args?.value, rules, args?.property) ?? `${String(property)} is invalid`,
      },
    });
}
