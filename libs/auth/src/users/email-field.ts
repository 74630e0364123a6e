import { Transform } from 'class-transformer';
import { IsString, MaxLength, ValidateBy } from 'class-validator';
import { hasControlOrFormatCharacter, MAX_EMAIL_LENGTH, normalizeEmail } from './email.js';

/**
 * An email field of a request body: normalised (NFKC, trimmed, lower-cased) before the other rules
 * look at it, and refused when it holds a control or format character (kept as sent, so the rule
 * below sees it).
 */
export const EmailField = (): PropertyDecorator => {
  const normalize = Transform(({ value }) => (typeof value === 'string' && !hasControlOrFormatCharacter(value) ? normalizeEmail(value) : value));
  const refuseLookAlikes = ValidateBy({
    name: 'hasNoControlOrFormatCharacter',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || !hasControlOrFormatCharacter(value),
      defaultMessage: (args) => `${args?.property ?? 'email'} must not contain control or format characters (such as zero-width spaces or bidi overrides)`,
    },
  });
  return (target, property) => {
    normalize(target, property);
    refuseLookAlikes(target, property);
    IsString()(target, property);
    MaxLength(MAX_EMAIL_LENGTH)(target, property);
  };
};
