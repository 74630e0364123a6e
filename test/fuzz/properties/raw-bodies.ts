import { beforeAll, describe, it } from '@jest/globals';
import fc from 'fast-check';
import { behaviourFuzzSetups, type FuzzSetup, type FuzzTarget, fuzzSetups, sharedFuzzTarget } from '../support/fuzz-target.js';
import { fuzzParameters, propertyTimeout } from '../support/fuzz-parameters.js';
import { RAW_BODIES } from '../support/raw-bodies.js';
import { expectRefusal, sendAndCheck } from '../support/response-checks.js';
import type { RawRequest } from '../../support/raw-http.js';

/** Bytes that may join into UTF-8 sequences the validation lets through to the database: every engine. */
const REACHING_THE_DATABASE = ['invalid UTF-8 bytes'];

function describeRawBodies(setups: FuzzSetup[], kinds: string[]): void {
  describe.each(setups)('fuzz: raw JSON text on $strategy, $engine', (setup) => {
    let target: FuzzTarget;
    beforeAll(async () => {
      target = await sharedFuzzTarget(setup);
    });

    it.each(kinds)(
      '%s: no 5xx, the error body on errors (400 where the README names the code), no stack trace, refusals write nothing',
      async (kind) => {
        await fc.assert(
          fc.asyncProperty(RAW_BODIES[kind], async (body) => {
            const request: RawRequest = { method: 'POST', path: `/auth/${body.endpoint}`, headers: { 'Content-Type': 'application/json' }, body: body.bytes };
            const response = await sendAndCheck(target, request);
            if (body.expected) expectRefusal(request, response, body.expected.status, body.expected.code);
          }),
          fuzzParameters(),
        );
      },
      propertyTimeout(300),
    );
  });
}

describeRawBodies(await fuzzSetups(), REACHING_THE_DATABASE);
describeRawBodies(behaviourFuzzSetups(), Object.keys(RAW_BODIES).filter((kind) => !REACHING_THE_DATABASE.includes(kind)));
