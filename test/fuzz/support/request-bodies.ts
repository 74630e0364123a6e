import fc from 'fast-check';
import { SEED_PASSWORD } from './fuzz-target.js';
import { hostileValue, objectOf, PROTOTYPE_KEYS, unicodeJson } from './hostile-values.js';

/** The endpoints that take a JSON body, and the fields of each (the demo user adds displayName). */
export const BODY_FIELDS = {
  signup: ['email', 'password', 'displayName'],
  login: ['email', 'password'],
  'forgot-password': ['email'],
  'reset-password': ['token', 'password'],
} as const;

/** change-password, which needs a signed-in user: sent with the seed account's credential. */
export const SIGNED_IN_BODY_FIELDS = {
  'change-password': ['current_password', 'new_password'],
} as const;

export type BodyEndpoint = keyof typeof BODY_FIELDS;
export const BODY_ENDPOINTS = Object.keys(BODY_FIELDS) as BodyEndpoint[];

/**
 * A signup email no earlier case used (so a valid signup really creates a user): an unbiased
 * UUID, because fast-check's bias towards small values would repeat the same few.
 */
export const freshEmail = fc.noBias(fc.uuid()).map((uuid) => `u${uuid.replace(/-/g, '')}@signup.fuzz.test`);

/**
 * An address forgot-password may be sent: never one a signup of the fuzz can create, because a
 * known address makes forgot-password write a token after its response, while later cases compare
 * the tables.
 */
export function neverRegistered(email: string): string {
  return email.replace('@signup.', '@unregistered.');
}

/** Values a field would have in a request that gets through validation. */
const plausibleEmail: Record<BodyEndpoint, fc.Arbitrary<string>> = {
  signup: fc.oneof(freshEmail, freshEmail.map((email) => `  ${email.toUpperCase()} `)),
  login: fc.oneof(freshEmail, fc.constantFrom('nobody@fuzz.test', 'a@b.co', 'x@localhost', ' SEED@fuzz.test ')),
  'forgot-password': fc.oneof(freshEmail.map(neverRegistered), fc.constantFrom('nobody@fuzz.test', 'a@b.co', 'x@localhost')),
  'reset-password': freshEmail,
};

const plausiblePassword = fc.oneof(fc.constantFrom('correct horse battery', 'é'.repeat(36), 'ｐａｓｓｗｏｒｄ１２'), fc.string({ minLength: 8, maxLength: 30 }));
const plausible: Record<string, fc.Arbitrary<string>> = {
  password: plausiblePassword,
  // The seed account's own password too, so that a change that succeeds is fuzzed as well.
  current_password: fc.oneof(plausiblePassword, fc.constant(SEED_PASSWORD)),
  new_password: plausiblePassword,
  displayName: fc.oneof(fc.constant('Ada'), fc.string({ minLength: 1, maxLength: 64 })),
  token: fc.base64String({ minLength: 40, maxLength: 48 }).map((text) => text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '')),
};

/** Extra keys: ones that reach the prototype chain, and arbitrary ones. */
export const extraKey = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, 'isActive', 'passwordHash', 'plan', 'internalNote', 'id'), fc.string({ maxLength: 12 }));

/**
 * A body for `endpoint`: each field absent, plausible or hostile, sometimes with extra keys;
 * sometimes not an object at all.
 */
export function fuzzBody(endpoint: BodyEndpoint | keyof typeof SIGNED_IN_BODY_FIELDS | 'logout' | 'refresh'): fc.Arbitrary<unknown> {
  const allFields: Record<string, readonly string[]> = { ...BODY_FIELDS, ...SIGNED_IN_BODY_FIELDS };
  const fields = allFields[endpoint] ?? [];
  const fieldEntries = fields.map((field) =>
    fc.option(
      fc.oneof({ weight: 2, arbitrary: (field === 'email' ? plausibleEmail[endpoint as BodyEndpoint] : plausible[field]) ?? hostileValue }, { weight: 3, arbitrary: hostileValue }).map((value) => [field, value] as [string, unknown]),
      { freq: 6 },
    ),
  );
  const asObject = fc
    .tuple(fc.tuple(...fieldEntries), fc.array(fc.tuple(extraKey, hostileValue), { maxLength: 2 }), fc.boolean())
    .map(([entries, extras, extrasFirst]) => {
      const own = entries.filter((entry): entry is [string, unknown] => entry !== null);
      return objectOf(extrasFirst ? [...extras, ...own] : [...own, ...extras]);
    });
  return fc.oneof({ weight: 5, arbitrary: asObject }, { weight: 1, arbitrary: unicodeJson });
}
