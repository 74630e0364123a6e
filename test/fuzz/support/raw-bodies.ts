import fc from 'fast-check';
import { shownAs, unicodeText } from './hostile-values.js';
import { BODY_ENDPOINTS, BODY_FIELDS, type BodyEndpoint, freshEmail, neverRegistered } from './request-bodies.js';

/** A body as bytes on the wire, and what the README says it must get (when it says). */
export interface RawBody {
  endpoint: BodyEndpoint;
  kind: string;
  bytes: Buffer;
  expected?: { status: number; code: 'MALFORMED_JSON' | 'VALIDATION_FAILED' };
}

const quote = (text: string) => JSON.stringify(text);

function fieldValues(endpoint: BodyEndpoint, email: string): Record<string, string> {
  const address = endpoint === 'forgot-password' ? neverRegistered(email) : email;
  const values: Record<string, string> = { email: address, password: 'correct horse battery', displayName: 'Ada', token: 'A'.repeat(43) };
  return Object.fromEntries(BODY_FIELDS[endpoint].map((field) => [field, values[field]]));
}

const endpointAndEmail = fc.tuple(fc.constantFrom(...BODY_ENDPOINTS), freshEmail);

/** `{"email":"a","email":{"$ne":null}}`: the same key twice (JSON.parse keeps the last one). */
const duplicateKeys = fc
  .tuple(endpointAndEmail, fc.nat(), fc.constantFrom('{"$ne":null}', '["x"]', '""', 'null', 'OTHER_ADDRESS', '"\\u0000"'), fc.boolean())
  .map(([[endpoint, email], pick, other, otherFirst]): RawBody => {
    const values = fieldValues(endpoint, email);
    const fields = Object.keys(values);
    const twice = [...fields, '__proto__'][pick % (fields.length + 1)];
    const entries = fields.map((field) => `${quote(field)}:${quote(values[field])}`);
    // An address per endpoint: one a signup registers never reaches forgot-password (which would write after its response).
    const duplicate = `${quote(twice)}:${other === 'OTHER_ADDRESS' ? quote(`other-${endpoint}@fuzz.test`) : other}`;
    return { endpoint, kind: `duplicate key ${twice}`, bytes: Buffer.from(`{${otherFirst ? [duplicate, ...entries] : [...entries, duplicate]}}`) };
  });

/** Byte sequences that are not UTF-8: stray continuation bytes, overlong forms, encoded surrogates, truncations. */
const INVALID_UTF8 = [[0xff], [0xfe, 0xff], [0x80], [0xc0, 0x80], [0xc1, 0xbf], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82], [0xf0, 0x9f, 0x98]];

const invalidUtf8 = fc
  .tuple(endpointAndEmail, fc.nat(), fc.array(fc.constantFrom(...INVALID_UTF8), { minLength: 1, maxLength: 3 }), fc.nat())
  .map(([[endpoint, email], pick, sequences, at]): RawBody => {
    const values = fieldValues(endpoint, email);
    const fields = Object.keys(values);
    const field = fields[pick % fields.length];
    const parts = fields.map((name) => {
      if (name !== field) return Buffer.from(`${quote(name)}:${quote(values[name])}`);
      const value = Buffer.from(values[name]);
      const index = 1 + (at % Math.max(1, value.length - 1));
      return Buffer.concat([Buffer.from(`${quote(name)}:"`), value.subarray(0, index), Buffer.from(sequences.flat()), value.subarray(index), Buffer.from('"')]);
    });
    const joined = parts.flatMap((part, i) => (i === 0 ? [part] : [Buffer.from(','), part]));
    const bytes = Buffer.concat([Buffer.from('{'), ...joined, Buffer.from('}')]);
    // docs/decisions/0005-http-rules.md: bytes that are not UTF-8 are 400 MALFORMED_JSON. Pieces may join into a valid sequence (E2 82 + 80).
    return { endpoint, kind: `invalid UTF-8 in ${field}`, bytes, expected: isUtf8(bytes) ? undefined : { status: 400, code: 'MALFORMED_JSON' } };
  });

/** Arrays or objects nested thousands of levels deep, as text (under the 16 KiB limit), in a field or as the body. */
const deepText = fc
  .tuple(endpointAndEmail, fc.integer({ min: 100, max: 2500 }), fc.constantFrom('array', 'object'), fc.boolean(), fc.nat())
  .map(([[endpoint, email], levels, kind, inField, pick]): RawBody => {
    // Arrays cost 2 bytes a level, objects 6: both stay under the 16 KiB limit.
    const depth = kind === 'array' ? levels * 3 : levels;
    const nested = kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    if (!inField) return { endpoint, kind: `body: ${kind} nested ${depth} levels`, bytes: Buffer.from(nested), expected: { status: 400, code: 'VALIDATION_FAILED' } };
    const values = fieldValues(endpoint, email);
    const fields = Object.keys(values);
    const field = fields[pick % fields.length];
    const entries = fields.map((name) => `${quote(name)}:${name === field ? nested : quote(values[name])}`);
    return { endpoint, kind: `${field}: ${kind} nested ${depth} levels`, bytes: Buffer.from(`{${entries}}`), expected: { status: 400, code: 'VALIDATION_FAILED' } };
  });

/** Number literals JavaScript turns into Infinity, 0 or an imprecise value: never a string. */
const NUMBER_LITERALS = ['1e999999', '-1e999999', '1e-999999', '123456789012345678901234567890', `1${'0'.repeat(400)}`, '-0', '0.1e1', '9007199254740993', '1E+308', '4.9e-324'];

const hugeNumbers = fc.tuple(endpointAndEmail, fc.nat(), fc.constantFrom(...NUMBER_LITERALS)).map(([[endpoint, email], pick, literal]): RawBody => {
  const values = fieldValues(endpoint, email);
  const fields = Object.keys(values);
  const field = fields[pick % fields.length];
  const entries = fields.map((name) => `${quote(name)}:${name === field ? literal : quote(values[name])}`);
  return { endpoint, kind: `${field}: number ${literal.slice(0, 20)}`, bytes: Buffer.from(`{${entries}}`), expected: { status: 400, code: 'VALIDATION_FAILED' } };
});

/** Not JSON at all: cut short, single quotes, comments, trailing commas, NaN, random text. */
const notJson = fc
  .tuple(
    endpointAndEmail,
    fc.oneof(
      fc.constantFrom("{'email':'a@b.co'}", '{"email":"a@b.co",}', '{"email":NaN}', '{"email":"a@b.co"} // x', '{"email":"a@b.co"}{}', '{"email":undefined}', '{"a":1e}', '[1,]', '{"\\x41":1}', '{"a":"\\ud800\\u"}', '{"a":"\t"}', '{', '"', '   ', 'nul', '{"a":tru}'),
      unicodeText(60).map((text) => `{${text}`),
    ),
  )
  .map(([[endpoint], text]): RawBody => ({ endpoint, kind: 'not JSON', bytes: Buffer.from(text), expected: malformedUnlessJson(text) }));

/** A body cut at a random byte: what a client that died mid-request sends. */
const truncated = fc.tuple(endpointAndEmail, fc.nat()).map(([[endpoint, email], at]): RawBody => {
  const whole = Buffer.from(JSON.stringify(fieldValues(endpoint, email)));
  const bytes = whole.subarray(0, 1 + (at % (whole.length - 1)));
  return { endpoint, kind: 'cut short', bytes, expected: malformedUnlessJson(bytes.toString('utf8')) };
});

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** docs/decisions/0005-http-rules.md: a body JSON.parse refuses is 400 MALFORMED_JSON (a generated text may happen to be JSON). */
function malformedUnlessJson(text: string): RawBody['expected'] {
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    return { status: 400, code: 'MALFORMED_JSON' };
  }
}

/** Each family of raw bodies, by name; fast-check prints a body as its kind and an excerpt. */
export const RAW_BODIES: Record<string, fc.Arbitrary<RawBody>> = Object.fromEntries(
  Object.entries({
    'duplicate keys': duplicateKeys,
    'invalid UTF-8 bytes': invalidUtf8,
    'nesting thousands of levels deep': deepText,
    'number literals past double precision': hugeNumbers,
    'text that is not JSON': notJson,
    'a body cut short': truncated,
  }).map(([name, arbitrary]) => [name, arbitrary.map((body) => shownAs(body, `${body.endpoint}, ${body.kind}: ${JSON.stringify(excerpt(body.bytes))} (${body.bytes.length} bytes)`))]),
);

function excerpt(bytes: Buffer): string {
  const text = bytes.toString('latin1');
  return text.length > 120 ? `${text.slice(0, 60)}...${text.slice(-60)}` : text;
}
