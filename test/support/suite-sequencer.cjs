// Jest's order of suites. Jest runs the suites it has timed before longest first, and the others by
// file size; a suite of test/suites is a few import lines, so on a fresh clone (no timings yet) the
// longest suites would start last and leave one worker busy alone at the end. Here a suite Jest has
// not timed weighs its file plus every module it reaches through relative dynamic imports
// (`await import('../jwt/index.js')`, and that module's own `await import('./cases/x.js')`), and
// five times that where it starts processes or a browser (the demo, the package, several instances).
const { readFileSync, statSync } = require('node:fs');
const { dirname, resolve } = require('node:path');
const TestSequencer = require('@jest/test-sequencer').default;

const IMPORTED = /import\('(\.{1,2}\/[^']+)\.js'\)/g;
const STARTS_PROCESSES = /\/apps\/demo\/test\/(browser|demo|multi-instance)\/|\/test\/package\/|processes\.e2e-spec\.ts$/;

/** Bytes of the module and of every module it imports dynamically by relative path, each counted once. */
function bytesOf(path, seen) {
  if (seen.has(path)) return 0;
  seen.add(path);
  const source = readFileSync(path, 'utf8');
  let bytes = source.length;
  for (const [, relative] of source.matchAll(IMPORTED)) bytes += bytesOf(resolve(dirname(path), `${relative}.ts`), seen);
  return bytes;
}

/** The suite's weight, read as milliseconds, the scale of Jest's own timings. */
function weightOf(path) {
  const bytes = bytesOf(path, new Set());
  return STARTS_PROCESSES.test(path) ? bytes * 5 : bytes;
}

class SuiteSequencer extends TestSequencer {
  time(test) {
    return super.time(test) ?? weightOf(test.path);
  }
}

module.exports = SuiteSequencer;
