import { afterAll } from '@jest/globals';
import { closeSharedFuzzTargets } from './support/fuzz-target.js';

// The properties of every family, run against one application per engine and strategy (built at its
// first use, shared by the families): the requests each property sends are as before, only the
// application booting and the suite's module loading happen once instead of once per family. The
// properties whose fuzzed values reach the database's text handling run on every engine, the
// others on SQLite (the pyramid: test/support/engines.ts).
await import('./properties/json-bodies.js');
await import('./properties/raw-bodies.js');
await import('./properties/field-rules.js');
await import('./properties/headers-and-encodings.js');
await import('./properties/credentials.js');
await import('./properties/paths.js');

afterAll(closeSharedFuzzTargets);
