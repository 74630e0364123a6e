import fc from 'fast-check';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { RawRequest } from '../../support/raw-http.js';
import { shownAs } from './hostile-values.js';
import { BODY_ENDPOINTS, type BodyEndpoint, freshEmail } from './request-bodies.js';

/** What the (docs/decisions/0005-http-rules.md) says a request of this family must get, when it says. */
export type Expected = { status: 413; code: 'PAYLOAD_TOO_LARGE' } | { status: 415; code: 'UNSUPPORTED_MEDIA_TYPE' } | undefined;

/**
 * One case: an endpoint, the valid body to send (built by the test from the seed account), and how
 * to put it on the wire.
 */
export interface EncodedCase {
  endpoint: BodyEndpoint;
  email: string;
  describe: string;
  encode(json: string): Pick<RawRequest, 'headers' | 'body' | 'chunkBytes'>;
  expected: Expected;
}

const UNSUPPORTED: Expected = { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' };
const TOO_LARGE: Expected = { status: 413, code: 'PAYLOAD_TOO_LARGE' };
const LIMIT = 16 * 1024;

const endpointAndEmail = fc.tuple(fc.constantFrom(...BODY_ENDPOINTS), freshEmail);

function named(arbitrary: fc.Arbitrary<EncodedCase>): fc.Arbitrary<EncodedCase> {
  return arbitrary.map((test) => shownAs(test, `${test.endpoint}: ${test.describe}`));
}

/** Media types and charsets: only `application/json` in UTF-8 is read (docs/decisions/0005-http-rules.md). */
const ACCEPTED_TYPES = ['application/json', 'application/json; charset=utf-8', 'Application/JSON; Charset=UTF-8', 'application/json;charset="utf-8"', 'application/json ; charset=UTF-8'];
const REFUSED_TYPES = [
  'text/plain', 'text/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/vnd.api+json',
  'application/json-patch+json', 'application/jsonx', 'application/xml', 'application/octet-stream', '*/*', '',
];
const CHARSETS: Record<string, (json: string) => Buffer> = {
  'utf-7': (json) => Buffer.from(json.replace(/\+/g, '+-'), 'ascii'),
  'utf-16le': (json) => Buffer.from(json, 'utf16le'),
  'utf-16': (json) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(json, 'utf16le')]),
  'utf-16be': (json) => Buffer.from(json, 'utf16le').swap16(),
  latin1: (json) => Buffer.from(json, 'latin1'),
  'iso-8859-1': (json) => Buffer.from(json, 'latin1'),
  'windows-1252': (json) => Buffer.from(json, 'latin1'),
  'us-ascii': (json) => Buffer.from(json, 'ascii'),
  'utf-32': (json) => Buffer.from(json, 'utf8'),
  'koi8-r': (json) => Buffer.from(json, 'utf8'),
};

export const contentTypeCases = named(
  fc.tuple(
    endpointAndEmail,
    fc.oneof(
      fc.constantFrom(...ACCEPTED_TYPES).map((type) => ({ type, charset: undefined as string | undefined, expected: undefined as Expected })),
      fc.constantFrom(...REFUSED_TYPES, null).map((type) => ({ type, charset: undefined, expected: UNSUPPORTED })),
      fc.constantFrom(...Object.keys(CHARSETS)).map((charset) => ({ type: `application/json; charset=${charset}`, charset, expected: UNSUPPORTED })),
    ),
  ).map(([[endpoint, email], { type, charset, expected }]): EncodedCase => ({
    endpoint,
    email,
    describe: type === null ? 'no Content-Type' : `Content-Type: ${type}`,
    encode: (json) => ({ headers: type === null ? ({} as Record<string, string>) : { 'Content-Type': type }, body: charset ? CHARSETS[charset](json) : Buffer.from(json) }),
    expected,
  })),
);

/** Compressed bodies, really compressed: refused unread, never inflated (docs/decisions/0005-http-rules.md). */
const COMPRESSORS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: (bytes) => gzipSync(bytes),
  'x-gzip': (bytes) => gzipSync(bytes),
  GZIP: (bytes) => gzipSync(bytes),
  deflate: (bytes) => deflateSync(bytes),
  br: (bytes) => brotliCompressSync(bytes),
  'gzip, identity': (bytes) => gzipSync(bytes),
  'identity, gzip': (bytes) => gzipSync(bytes),
  'deflate, gzip': (bytes) => gzipSync(deflateSync(bytes)),
  compress: (bytes) => bytes,
  zstd: (bytes) => bytes,
  'made-up': (bytes) => bytes,
};

export const contentEncodingCases = named(
  fc.tuple(endpointAndEmail, fc.constantFrom(...Object.keys(COMPRESSORS)), fc.constantFrom(0, 20_000, 90_000)).map(([[endpoint, email], encoding, padding]): EncodedCase => ({
    endpoint,
    email,
    describe: `Content-Encoding: ${encoding}${padding ? `, inflates past ${padding} bytes` : ''}`,
    encode: (json) => ({
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
      // Leading whitespace keeps the JSON valid while the inflated body passes the 16 KiB limit.
      body: COMPRESSORS[encoding](Buffer.from(`${' '.repeat(padding)}${json}`)),
    }),
    expected: UNSUPPORTED,
  })),
);

/** Ways to make a body large without changing what it means to a JSON parser. */
const PADDINGS: Record<string, (json: string, bytes: number) => string> = {
  whitespace: (json, bytes) => `${' \n\t'.repeat(Math.ceil(bytes / 3))}${json}`,
  'unicode escapes': (json, bytes) => `{"pad":"${'\\u0041'.repeat(Math.ceil(bytes / 6))}",${json.slice(1)}`,
  'long value': (json, bytes) => `{"pad":"${'x'.repeat(bytes)}",${json.slice(1)}`,
};

/** Bodies over 16 KiB, chunked (no Content-Length) or declared: 413 (docs/decisions/0005-http-rules.md). Chunked bodies under it pass. */
export const bodySizeCases = named(
  fc
    .tuple(endpointAndEmail, fc.constantFrom(...Object.keys(PADDINGS)), fc.integer({ min: LIMIT + 1, max: 120_000 }), fc.boolean(), fc.constantFrom(512, 4096, 16_384))
    .map(([[endpoint, email], padding, size, chunked, chunkBytes]): EncodedCase => ({
      endpoint,
      email,
      describe: `${size} bytes padded with ${padding}, ${chunked ? `chunked by ${chunkBytes}` : 'with Content-Length'}`,
      encode: (json) => {
        const body = Buffer.from(PADDINGS[padding](json, size));
        return { headers: { 'Content-Type': 'application/json' }, body, ...(chunked ? { chunkBytes } : {}) };
      },
      expected: TOO_LARGE,
    })),
);

/** A chunked body under the limit is read like any other. */
export const smallChunkedCases = named(
  fc.tuple(endpointAndEmail, fc.integer({ min: 1, max: 64 })).map(([[endpoint, email], chunkBytes]): EncodedCase => ({
    endpoint,
    email,
    describe: `chunked by ${chunkBytes} bytes`,
    encode: (json) => ({ headers: { 'Content-Type': 'application/json' }, body: Buffer.from(json), chunkBytes }),
    expected: undefined,
  })),
);
