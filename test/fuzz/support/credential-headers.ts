import fc from 'fast-check';
import { parse } from 'cookie';
import { forgeToken } from '../../jwt/jwt-kit.js';
import type { SeedAccount } from './fuzz-target.js';

const COOKIE_NAMES = ['svc_session', 'svc_refresh', 'SVC_SESSION', 'svc_session2', 'svc', 'session', 'svc_oauth_state'];

/** Bytes a header value may hold (Node refuses the others): HTAB, visible ASCII, and latin1 above 0x80. */
const headerCharacter = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x21, max: 0x7e }) },
  { weight: 1, arbitrary: fc.constantFrom(0x09, 0x20) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
).map((code) => String.fromCharCode(code));

export const headerText = (maxLength: number) => fc.string({ unit: headerCharacter, maxLength });

const base64url = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength, maxLength });

/** Whitespace a sloppy parser may or may not skip around a cookie name. */
const padding = fc.constantFrom('', '', '', ' ', '\t', '  ', ' \t');
const separator = fc.constantFrom('; ', ';', ';;', ' ; ', ';\t');

/** A cookie value that is not a credential of the application. */
export const garbageValue = fc.oneof(
  base64url(0, 60),
  base64url(43, 43),
  headerText(40),
  headerText(40).map((text) => `"${text}"`),
  fc.constant('%'),
  fc.constant('%E0%A4%A'),
  fc.nat({ max: 2500 }).map((length) => 'a'.repeat(length)),
);

/** A `Cookie` header of pairs with odd names, spacing and separators. */
export const oddCookieHeader = fc
  .array(fc.tuple(padding, fc.oneof(fc.constantFrom(...COOKIE_NAMES), headerText(8)), padding, garbageValue), { minLength: 1, maxLength: 4 })
  .chain((pairs) => fc.array(separator, { minLength: pairs.length, maxLength: pairs.length }).map((separators) => pairs.map(([before, name, after, value], i) => `${i ? separators[i] : ''}${before}${name}${after}=${value}`).join('')));

/** `Authorization` values that do not carry a token the application issued. */
export function oddAuthorization(seed: SeedAccount): fc.Arbitrary<string> {
  const now = Math.floor(Date.UTC(2026, 10, 21, 10) / 1000);
  const claims = { sub: seed.userId, sid: '00000000-0000-4000-8000-000000000000', jti: 'x', typ: 'access', iat: now, exp: now + 600 };
  return fc.oneof(
    fc.constantFrom('Bearer', 'Bearer ', 'bearer', 'Basic dXNlcjpwYXNz', 'Bearer null', 'Bearer undefined', 'Bearer ..', 'Bearer a.b.c', 'Token x', 'Bearer x, Bearer y'),
    fc.tuple(fc.constantFrom('Bearer ', 'bearer ', 'BEARER ', 'Bearer  ', 'Bearer\t'), fc.array(base64url(0, 80), { minLength: 1, maxLength: 4 })).map(([scheme, parts]) => `${scheme}${parts.join('.')}`),
    headerText(200).map((text) => `Bearer ${text}`),
    fc.nat({ max: 8000 }).map((length) => `Bearer ${'a'.repeat(length)}`),
    fc.constantFrom('none', 'None', 'NONE', 'nOnE').map((alg) => `Bearer ${forgeToken({ alg, typ: 'JWT' }, claims, 'none')}`),
    fc.constantFrom('', 'secret', 'q8Vz3kR1xN7pL2mW9tY4bH6cJ0fG5dS').map((key) => `Bearer ${forgeToken({ alg: 'HS256', typ: 'JWT' }, claims, { hmac: { hash: 'sha256', key } })}`),
  );
}

/** Ways to write a `Cookie` header holding `name=value`, some of which a browser never sends. */
export function cookieHeaderCarrying(name: string, value: string): fc.Arbitrary<string> {
  const pair = fc.tuple(padding, padding, fc.constantFrom('', '', ' ', '\t'), fc.boolean()).map(([before, after, afterEquals, quoted]) => `${before}${name}${after}=${afterEquals}${quoted ? `"${value}"` : value}`);
  const other = fc.tuple(fc.constantFrom('a', 'theme', 'SVC_SESSION', 'svc_sessionx'), base64url(0, 10)).map(([otherName, otherValue]) => `${otherName}=${otherValue}`);
  return fc
    .tuple(fc.array(other, { maxLength: 2 }), pair, fc.array(other, { maxLength: 2 }), separator)
    .map(([before, carried, after, glue]) => [...before, carried, ...after].join(glue));
}

/** Whether the cookie parser the library authenticates with reads `value` under `name` in `header` (docs/decisions/0023-cross-site-requests.md). */
export function parserReads(header: string, name: string, value: string): boolean {
  return parse(header)[name] === value;
}

/** Headers with which a browser says a request comes from another site. */
export const crossSiteHeaders = fc.oneof(
  fc.constantFrom('https://evil.test', 'null', 'http://app.test:8080', 'https://app.test', 'http://evil.app.test', 'http://app.test.evil.test').map((origin) => ({ Origin: origin })),
  fc.constant({ 'Sec-Fetch-Site': 'cross-site' }),
);
