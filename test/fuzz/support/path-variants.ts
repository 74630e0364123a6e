import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import type { RawRequest } from '../../support/raw-http.js';
import { shownAs } from './hostile-values.js';
import type { FuzzStrategy } from './fuzz-target.js';
import { endpointsOf } from './fuzz-target.js';
import { BODY_FIELDS, fuzzBody } from './request-bodies.js';

/** `path` with each letter's case chosen by `upper`, a trailing slash or a query string maybe. */
export function caseVariant(path: string, upper: boolean[], trailingSlash: boolean, query: boolean): string {
  const cased = [...path].map((char, i) => (upper[i % upper.length] ? char.toUpperCase() : char.toLowerCase())).join('');
  return `${cased}${trailingSlash ? '/' : ''}${query ? '?x=1&email=a%40b.co' : ''}`;
}

/** How the body of a case-variant request is sent, and what the README says it gets. */
const BODY_FORMS = ['json', 'form', 'gzip'] as const;

export interface PathCase {
  request: RawRequest;
  /** 415 when the body is not uncompressed JSON and the route takes a body. */
  expectedStatus?: number;
  describe: string;
}

/** A library route under a case variant of its path, with a fuzzed body (docs/decisions/0004-errors.md: every rule holds whatever the case). */
export function caseVariantRequests(strategy: FuzzStrategy): fc.Arbitrary<PathCase> {
  return fc
    .tuple(
      fc.constantFrom(...endpointsOf(strategy)),
      fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
      fc.boolean(),
      fc.boolean(),
      fc.constantFrom(...BODY_FORMS),
    )
    .chain(([endpoint, upper, trailingSlash, query, form]) => {
      const name = endpoint.path.slice('/auth/'.length);
      const takesBody = endpoint.method === 'POST' && name in BODY_FIELDS;
      return fuzzBody(takesBody ? (name as keyof typeof BODY_FIELDS) : 'logout').map((body): PathCase => {
        const path = caseVariant(endpoint.path, upper, trailingSlash, query);
        const json = JSON.stringify(body);
        const request: RawRequest =
          endpoint.method === 'GET'
            ? { method: 'GET', path, headers: { Cookie: 'svc_session=x' } }
            : form === 'json'
              ? { method: 'POST', path, headers: { 'Content-Type': 'application/json' }, body: json }
              : form === 'form'
                ? { method: 'POST', path, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'email=a%40b.co&password=correct+horse+battery' }
                : { method: 'POST', path, headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: gzipSync(json) };
        const refusedBody = endpoint.method === 'POST' && form !== 'json';
        return shownAs({ request, expectedStatus: refusedBody ? 415 : undefined, describe: `${endpoint.method} ${path} (${form} body)` }, `${endpoint.method} ${path} (${form} body): ${json.slice(0, 200)}`);
      });
    });
}

/** A method and path under the prefix that no library route serves (docs/decisions/0004-errors.md: 404 NOT_FOUND). */
export function unknownRouteRequests(strategy: FuzzStrategy): fc.Arbitrary<RawRequest> {
  const known = new Set(endpointsOf(strategy).map((endpoint) => `${endpoint.method} ${endpoint.path}`));
  const segment = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_.'), minLength: 1, maxLength: 12 });
  const path = fc.oneof(
    fc.constantFrom('/auth', '/auth/', '/auth/me/x', '/auth/signup/extra', '/auth/oauth2/github/login', '/auth/oidc/x/callback', '/auth/refresh', '/auth/users', '/auth/admin'),
    fc.constantFrom(...endpointsOf(strategy).map((endpoint) => endpoint.path)),
    segment.map((name) => `/auth/${name}`),
  );
  return fc
    .tuple(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), path)
    .filter(([method, candidate]) => !known.has(`${method} ${candidate.replace(/\/$/, '')}`) && !((method === 'GET' || method === 'DELETE') && candidate.replace(/\/$/, '') === '/auth/me'))
    .map(([method, candidate]) => shownAs({ method, path: candidate, headers: { 'Content-Type': 'application/json' }, body: method === 'GET' ? undefined : '{}' }, `${method} ${candidate}`));
}
