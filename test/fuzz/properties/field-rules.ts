import { beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { behaviourFuzzSetups, type FuzzTarget, fuzzSetups, sharedFuzzTarget } from '../support/fuzz-target.js';
import { FUZZ_RUNS, fuzzParameters, propertyTimeout } from '../support/fuzz-parameters.js';
import {
  CONTROL_AND_FORMAT_CHARACTERS,
  hostileValue,
  insertInside,
  nonString,
  objectOf,
  PROTOTYPE_KEYS,
  textWithLoneSurrogate,
  textWithNul,
} from '../support/hostile-values.js';
import { BODY_ENDPOINTS, BODY_FIELDS, type BodyEndpoint, freshEmail } from '../support/request-bodies.js';
import { expectRefusal, sendAndCheck } from '../support/response-checks.js';
import { validBody, validBodyUsesSeed } from '../support/valid-bodies.js';
import type { RawRequest } from '../../support/raw-http.js';

/** One field of an endpoint's body, chosen at random. */
const endpointField = fc.constantFrom(...BODY_ENDPOINTS).chain((endpoint) => fc.constantFrom(...BODY_FIELDS[endpoint]).map((field) => ({ endpoint, field: field as string })));

const jsonPost = (endpoint: BodyEndpoint, body: unknown): RawRequest => ({
  method: 'POST',
  path: `/auth/${endpoint}`,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** Fullwidth forms of ASCII letters, digits, '@' and '.': NFKC maps them back (docs/decisions/0006-validation.md). */
function fullwidth(text: string, pick: boolean[]): string {
  return [...text].map((char, i) => (pick[i % pick.length] && char >= '!' && char <= '~' ? String.fromCodePoint(char.codePointAt(0)! + 0xfee0) : char)).join('');
}

/** Sends the valid body of `endpoint` with `field` replaced, and expects 400 VALIDATION_FAILED with nothing written. */
async function expectFieldRefused(target: FuzzTarget, endpoint: BodyEndpoint, field: string, value: unknown, email: string): Promise<void> {
  const body = { ...validBody(target, endpoint, email), [field]: value };
  const request = jsonPost(endpoint, body);
  const response = await sendAndCheck(target, request, { usesSeed: validBodyUsesSeed(endpoint) });
  expectRefusal(request, response, 400, 'VALIDATION_FAILED');
}

// What an engine would store or refuse in its own way (PostgreSQL refuses a NUL in text): every engine.
describe.each(await fuzzSetups())('fuzz: input rules (docs/decisions/0006-validation.md) on $strategy, $engine', (setup) => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await sharedFuzzTarget(setup);
  });

  it(
    'a NUL or a lone surrogate in any string field is 400 VALIDATION_FAILED, on every engine, nothing written',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          endpointField,
          fc.oneof(textWithNul, textWithLoneSurrogate),
          fc.boolean(),
          fc.nat(),
          freshEmail,
          async ({ endpoint, field }, bad, insideValidValue, at, email) => {
            const valid = String(validBody(target, endpoint, email)[field]);
            await expectFieldRefused(target, endpoint, field, insideValidValue ? insertInside(valid, bad, at) : bad, email);
          },
        ),
        fuzzParameters(),
      );
    },
    propertyTimeout(400),
  );
});

describe.each(behaviourFuzzSetups())('fuzz: input rules (docs/decisions/0006-validation.md) on $strategy, $engine', (setup) => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await sharedFuzzTarget(setup);
  });

  it(
    'a value of the wrong type in any field, however deeply nested, is 400 VALIDATION_FAILED, nothing written',
    async () => {
      await fc.assert(
        fc.asyncProperty(endpointField, nonString, freshEmail, async ({ endpoint, field }, value, email) => {
          await expectFieldRefused(target, endpoint, field, value, email);
        }),
        fuzzParameters(),
      );
    },
    propertyTimeout(400),
  );

  it(
    'a required field sent as null is 400 VALIDATION_FAILED, nothing written',
    async () => {
      const required = fc.constantFrom(...BODY_ENDPOINTS).chain((endpoint) =>
        fc.constantFrom(...BODY_FIELDS[endpoint].filter((field) => field !== 'displayName')).map((field) => ({ endpoint, field: field as string })),
      );
      await fc.assert(
        fc.asyncProperty(required, freshEmail, async ({ endpoint, field }, email) => {
          await expectFieldRefused(target, endpoint, field, null, email);
        }),
        fuzzParameters(Math.min(FUZZ_RUNS, 20)),
      );
    },
    propertyTimeout(400),
  );

  it(
    '__proto__, constructor, prototype, hasOwnProperty, toString keys are unknown fields: 400, never dropped',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...BODY_ENDPOINTS),
          fc.constantFrom(...PROTOTYPE_KEYS),
          fc.oneof(fc.constant({ isActive: false }), fc.constant({ prototype: { isActive: false } }), hostileValue),
          fc.boolean(),
          freshEmail,
          async (endpoint, key, value, first, email) => {
            const valid = Object.entries(validBody(target, endpoint, email));
            const body = objectOf(first ? [[key, value], ...valid] : [...valid, [key, value]]);
            const request = jsonPost(endpoint, body);
            const response = await sendAndCheck(target, request, { usesSeed: validBodyUsesSeed(endpoint) });
            expectRefusal(request, response, 400, 'VALIDATION_FAILED');
            expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('isActive');
          },
        ),
        fuzzParameters(),
      );
    },
    propertyTimeout(400),
  );

  it(
    'a signup email with a control or format character inside is 400 (no look-alike accounts), nothing written',
    async () => {
      await fc.assert(
        fc.asyncProperty(freshEmail, fc.constantFrom(...CONTROL_AND_FORMAT_CHARACTERS), fc.nat(), async (email, character, at) => {
          await expectFieldRefused(target, 'signup', 'email', insertInside(email, character, at), email);
        }),
        fuzzParameters(),
      );
    },
    propertyTimeout(400),
  );

  it(
    'case, surrounding spaces and fullwidth forms of a registered email are the same account: 409',
    async () => {
      await fc.assert(
        fc.asyncProperty(freshEmail, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), fc.boolean(), fc.boolean(), async (email, pick, upper, spaces) => {
          const first = jsonPost('signup', { email, password: 'correct horse battery' });
          const created = await sendAndCheck(target, first);
          if (created.status !== 201) throw new Error(`signup of ${email} answered ${created.status} ${created.text}`);
          let variant = fullwidth(upper ? email.toUpperCase() : email, pick);
          if (spaces) variant = `  ${variant} `;
          const second = jsonPost('signup', { email: variant, password: 'correct horse battery' });
          expectRefusal(second, await sendAndCheck(target, second), 409, 'EMAIL_ALREADY_REGISTERED');
        }),
        fuzzParameters(Math.max(5, Math.round(FUZZ_RUNS / 3))),
      );
    },
    propertyTimeout(800),
  );
});
