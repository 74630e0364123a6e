import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createFuzzTarget, type FuzzTarget, fuzzSetups } from './support/fuzz-target.js';
import { fuzzParameters, propertyTimeout } from './support/fuzz-parameters.js';
import { BODY_ENDPOINTS, fuzzBody } from './support/request-bodies.js';
import { sendAndCheck } from './support/response-checks.js';

const SETUPS = await fuzzSetups();

describe.each(SETUPS)('fuzz: arbitrary JSON bodies on $strategy, $engine', (setup) => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await createFuzzTarget(setup);
  });
  afterAll(async () => {
    await target?.close();
  });

  const endpoints = [...BODY_ENDPOINTS, 'logout' as const, ...(setup.strategy === 'jwt' ? (['refresh'] as const) : [])];

  it(
    'every POST endpoint: no 5xx, the error body on errors, no stack trace, a refusal writes nothing',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...endpoints).chain((endpoint) => fuzzBody(endpoint).map((body) => ({ endpoint, body }))),
          async ({ endpoint, body }) => {
            await sendAndCheck(target, { method: 'POST', path: `/auth/${endpoint}`, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
          },
        ),
        fuzzParameters(),
      );
      expect(target.logger.withStackFrames()).toEqual([]);
    },
    propertyTimeout(300),
  );
});
