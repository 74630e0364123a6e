import { beforeAll, describe, it } from '@jest/globals';
import fc from 'fast-check';
import { type FuzzTarget, behaviourFuzzSetups, sharedFuzzTarget } from '../support/fuzz-target.js';
import { fuzzParameters, propertyTimeout } from '../support/fuzz-parameters.js';
import { caseVariantRequests, unknownRouteRequests } from '../support/path-variants.js';
import { describeExchange, expectRefusal, sendAndCheck } from '../support/response-checks.js';

const SETUPS = behaviourFuzzSetups();

describe.each(SETUPS)('fuzz: paths under the prefix on $strategy, $engine', (setup) => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await sharedFuzzTarget(setup);
  });

  it(
    'case variants (/AUTH/signup, /Auth/Login/): the library rules, the error body and the auth headers hold, no 5xx, no stack trace',
    async () => {
      await fc.assert(
        fc.asyncProperty(caseVariantRequests(setup.strategy), async ({ request, expectedStatus }) => {
          const response = await sendAndCheck(target, request);
          if (expectedStatus === 415) expectRefusal(request, response, 415, 'UNSUPPORTED_MEDIA_TYPE');
          if (response.headers['cache-control'] !== 'no-store' || response.headers['referrer-policy'] !== 'no-referrer') {
            throw new Error(`an auth response without Cache-Control: no-store and Referrer-Policy: no-referrer:\n${describeExchange(request, response)}`);
          }
        }),
        fuzzParameters(),
      );
    },
    propertyTimeout(300),
  );

  it(
    'an unknown path or method under the prefix is 404 NOT_FOUND with the error body',
    async () => {
      await fc.assert(
        fc.asyncProperty(unknownRouteRequests(setup.strategy), async (request) => {
          expectRefusal(request, await sendAndCheck(target, request), 404, 'NOT_FOUND');
        }),
        fuzzParameters(),
      );
    },
    propertyTimeout(100),
  );
});
