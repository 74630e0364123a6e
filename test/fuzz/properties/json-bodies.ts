import { beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { behaviourFuzzSetups, type FuzzTarget, fuzzSetups, sharedFuzzTarget } from '../support/fuzz-target.js';
import { fuzzParameters, propertyTimeout } from '../support/fuzz-parameters.js';
import { BODY_ENDPOINTS, fuzzBody } from '../support/request-bodies.js';
import { sendAndCheck } from '../support/response-checks.js';

const SETUPS = await fuzzSetups();

describe.each(SETUPS)('fuzz: arbitrary JSON bodies on $strategy, $engine', (setup) => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await sharedFuzzTarget(setup);
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

// change-password's fields are hashed or compared by bcrypt, never stored as sent: no engine sees them.
describe.each(behaviourFuzzSetups())('fuzz: arbitrary JSON bodies of a signed-in user on $strategy, $engine', (setup) => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await sharedFuzzTarget(setup);
  });

  it(
    'change-password of a signed-in user: no 5xx, the error body on errors, a refusal writes nothing, the credential stays valid',
    async () => {
      const statuses = new Set<number>();
      await fc.assert(
        fc.asyncProperty(fuzzBody('change-password'), async (body) => {
          const { seed } = target;
          const credential: Record<string, string> = setup.strategy === 'session' ? { Cookie: `svc_session=${seed.session}` } : { Authorization: `Bearer ${seed.access}` };
          const request = { method: 'POST' as const, path: '/auth/change-password', headers: { 'Content-Type': 'application/json', ...credential }, body: JSON.stringify(body) };
          statuses.add((await sendAndCheck(target, request, { usesSeed: true })).status);
        }),
        fuzzParameters(),
      );
      // Every request got past the guard: the refusals are the body's, not a lost credential's.
      expect(statuses.has(401)).toBe(false);
      expect(target.logger.withStackFrames()).toEqual([]);
    },
    propertyTimeout(300),
  );
});
