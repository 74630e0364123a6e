import { beforeAll, describe, it } from '@jest/globals';
import fc from 'fast-check';
import { type FuzzTarget, behaviourFuzzSetups, sharedFuzzTarget } from '../support/fuzz-target.js';
import { FUZZ_RUNS, fuzzParameters, propertyTimeout } from '../support/fuzz-parameters.js';
import { bodySizeCases, contentEncodingCases, contentTypeCases, type EncodedCase, smallChunkedCases } from '../support/encoded-requests.js';
import { describeExchange, expectRefusal, sendAndCheck } from '../support/response-checks.js';
import { validBody, validBodyUsesSeed } from '../support/valid-bodies.js';
import type { RawRequest } from '../../support/raw-http.js';

const SETUPS = behaviourFuzzSetups();

const SUCCESS = { signup: 201, login: 200, 'forgot-password': 202, 'reset-password': 204 };

const FAMILIES: [string, fc.Arbitrary<EncodedCase>][] = [
  ['Content-Type and charset variants: only application/json in UTF-8 is read, anything else is 415', contentTypeCases],
  ['Content-Encoding gzip, deflate, br and others, really compressed: 415, never inflated', contentEncodingCases],
  ['bodies over 16 KiB, chunked or not, however padded: 413', bodySizeCases],
];

describe.each(SETUPS)('fuzz: headers and encodings on $strategy, $engine', (setup) => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await sharedFuzzTarget(setup);
  });

  const requestFor = (test: EncodedCase): RawRequest => ({
    method: 'POST',
    path: `/auth/${test.endpoint}`,
    ...test.encode(JSON.stringify(validBody(target, test.endpoint, test.email))),
  });

  it.each(FAMILIES)(
    '%s; no 5xx, the error body on errors, no stack trace, nothing written',
    async (_name, cases) => {
      await fc.assert(
        fc.asyncProperty(cases, async (test) => {
          const request = requestFor(test);
          const response = await sendAndCheck(target, request, { usesSeed: validBodyUsesSeed(test.endpoint) });
          if (test.expected) expectRefusal(request, response, test.expected.status, test.expected.code);
        }),
        fuzzParameters(),
      );
    },
    propertyTimeout(400),
  );

  it(
    'a valid body sent chunked under the limit is served like any other',
    async () => {
      await fc.assert(
        fc.asyncProperty(smallChunkedCases, async (test) => {
          const request = requestFor(test);
          const response = await sendAndCheck(target, request, { usesSeed: validBodyUsesSeed(test.endpoint) });
          if (response.status !== SUCCESS[test.endpoint]) throw new Error(`expected ${SUCCESS[test.endpoint]}:\n${describeExchange(request, response)}`);
        }),
        fuzzParameters(Math.max(4, Math.round(FUZZ_RUNS / 4))),
      );
    },
    propertyTimeout(800),
  );
});
