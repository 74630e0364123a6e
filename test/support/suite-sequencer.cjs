// Jest's order of suites. Jest runs the suites it has timed before longest first, and the others by
// file size; a folder's suite is a few import lines, so on a fresh clone (no timings yet) the longest
// suites would start last and leave one worker busy alone at the end. Here a suite Jest has not timed
// weighs its file plus the modules it imports by relative path (`await import('./cases/x.js')`), and
// five times that where it starts processes or a browser (the demo, the package, several instances).
const { readFileSync, statSync } = require('node:fs');
const { dirname, resolve } = require('node:path');
const TestSequencer = require('@jest/test-sequencer').default;

const IMPORTED = /import\('(\.{1,2}\/[^']+)\.js'\)/g;
const STARTS_PROCESSES = /\/apps\/demo\/test\/(browser|demo|multi-instance)\/|\/test\/package\/|processes\.e2e-spec\.ts$/;

/** Bytes of the suite and of the modules it imports; read as milliseconds, the scale of Jest's own timings. */
function weightOf(path) {
  const source = readFileSync(path, 'utf8');
  let bytes = source.length;
  for (const [, relative] of source.matchAll(IMPORTED)) bytes += statSync(resolve(dirname(path), `${relative}.ts`)).size;
  return STARTS_PROCESSES.test(path) ? bytes * 5 : bytes;
}

class SuiteSequencer extends TestSequencer {
  time(test) {
    return super.time(test) ?? weightOf(test.path);
  }
}

module.exports = SuiteSequencer;
