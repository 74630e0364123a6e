import { beforeAll, describe, it } from '@jest/globals';
import fc from 'fast-check';
import { type FuzzTarget, behaviourFuzzSetups, sharedFuzzTarget } from '../support/fuzz-target.js';
import { fuzzParameters, propertyTimeout } from '../support/fuzz-parameters.js';
import { cookieHeaderCarrying, crossSiteHeaders, oddAuthorization, oddCookieHeader, parserReads } from '../support/credential-headers.js';
import { describeExchange, expectRefusal, sendAndCheck } from '../support/response-checks.js';
import type { RawRequest } from '../../support/raw-http.js';

const SETUPS = behaviourFuzzSetups();

describe.each(SETUPS)('fuzz: cookies and Authorization headers on $strategy, $engine', (setup) => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await sharedFuzzTarget(setup);
  });

  it(
    'GET /auth/me: odd cookies and Authorization values never authenticate (401 UNAUTHENTICATED), no 5xx, no stack trace',
    async () => {
      const headers = fc
        .record({ Cookie: oddCookieHeader, Authorization: oddAuthorization(target.seed) }, { requiredKeys: [] })
        .filter((picked) => Object.keys(picked).length > 0);
      await fc.assert(
        fc.asyncProperty(headers, async (picked) => {
          const request: RawRequest = { method: 'GET', path: '/auth/me', headers: picked as Record<string, string> };
          const response = await sendAndCheck(target, request);
          expectRefusal(request, response, 401, 'UNAUTHENTICATED');
          if (setup.strategy === 'jwt' && !/^Bearer\b/.test(String(response.headers['www-authenticate']))) {
            throw new Error(`401 without WWW-Authenticate: Bearer:\n${describeExchange(request, response)}`);
          }
        }),
        fuzzParameters(),
      );
    },
    propertyTimeout(200),
  );

  it(
    'a cross-site POST carrying the credential in any form the cookie parser reads is 403 CSRF_REJECTED, nothing changed',
    async () => {
      const endpoints = setup.strategy === 'jwt' ? ['logout', 'refresh', 'login'] : ['logout', 'login'];
      const credential = () => (setup.strategy === 'jwt' ? target.seed.refresh! : target.seed.session!);
      // The credential changes when the seed is renewed: the header is built from a placeholder.
      const PLACEHOLDER = 'CREDENTIAL_PLACEHOLDER';
      let carriedCases = 0;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...endpoints), cookieHeaderCarrying(target.cookieName, PLACEHOLDER), crossSiteHeaders, async (endpoint, cookieHeader, crossSite) => {
          const cookie = cookieHeader.replace(PLACEHOLDER, credential());
          const request: RawRequest = {
            method: 'POST',
            path: `/auth/${endpoint}`,
            headers: { Cookie: cookie, ...crossSite, ...(endpoint === 'login' ? { 'Content-Type': 'application/json' } : {}) },
            ...(endpoint === 'login' ? { body: JSON.stringify({ email: target.seed.email, password: target.seed.password }) } : {}),
          };
          const carried = parserReads(cookie, target.cookieName, credential());
          const response = await sendAndCheck(target, request, { usesSeed: true });
          if (carried) {
            carriedCases += 1;
            expectRefusal(request, response, 403, 'CSRF_REJECTED');
          }
        }),
        fuzzParameters(),
      );
      // The generator must produce headers that do carry the credential, or the property checks nothing.
      expect(carriedCases).toBeGreaterThan(0);
    },
    propertyTimeout(500),
  );
});
