// Jest's hooks for the demo specs, apart from demo-process.ts, which the benchmarks import outside Jest.
import { afterAll, beforeAll } from '@jest/globals';
import { reserveLoopbackPort } from '../../../../test/support/listen.js';
import { type DemoProcess, runDemo, startTogether } from './demo-process.js';

interface Stoppable {
  stop(): Promise<void>;
}

/** How many starts run at once: two overlap their waits; more would only share the same cores, and each must be up within runDemo's 60 s on a loaded machine. */
const AT_ONCE = 2;

/** Every start the suite's modules asked for, by key; made at once in the first beforeAll that runs. */
const registered = new Map<string, () => Promise<Stoppable>>();
let startedAll: Promise<Record<string, Stoppable>> | undefined;
let stoppedAll: Promise<void> | undefined;
let unnamed = 0;

/** Runs `starts` AT_ONCE at a time, each as soon as a place frees (see startTogether: all stopped if one fails). */
function startInTurns(starts: Record<string, () => Promise<Stoppable>>): Promise<Record<string, Stoppable>> {
  let running = 0;
  const queued: (() => void)[] = [];
  const place = async () => {
    if (running >= AT_ONCE) await new Promise<void>((resolve) => queued.push(resolve));
    running++;
  };
  const free = () => {
    running--;
    queued.shift()?.();
  };
  return startTogether(Object.fromEntries(Object.entries(starts).map(([key, start]) => [key, () => place().then(start).finally(free)])));
}

/**
 * Registers a suite's starts (a module's describe.each cases, each a demo and what it needs); the
 * first beforeAll of the suite makes every start its modules registered, a few at once, and the
 * last afterAll stops them. A start given a key in `shareAs` is made once for every module asking
 * for that key: the key names its whole environment, so only demos started alike are shared. The
 * record returned is filled when the beforeAll is done.
 */
export function startForSuite<Name extends string, Started extends Stoppable>(starts: Record<Name, () => Promise<Started>>, shareAs: Partial<Record<Name, string>> = {}): Partial<Record<Name, Started>> {
  const names = Object.keys(starts) as Name[];
  const keys = names.map((name) => shareAs[name] ?? `${++unnamed} ${name}`);
  names.forEach((name, i) => {
    if (!registered.has(keys[i])) registered.set(keys[i], starts[name]);
  });
  const started: Partial<Record<Name, Started>> = {};
  beforeAll(async () => {
    startedAll ??= startInTurns(Object.fromEntries(registered));
    const all = await startedAll;
    names.forEach((name, i) => (started[name] = all[keys[i]] as Started));
    // Each start gives up after 60 s of its own (runDemo); a suite's dozen starts, two at a time, stay within five minutes.
  }, 300_000);
  afterAll(async () => {
    stoppedAll ??= (async () => {
      const all = await startedAll?.catch(() => undefined);
      await Promise.all(Object.values(all ?? {}).map((each) => each.stop()));
    })();
    await stoppedAll;
  });
  return started;
}

type Exit = { exitCode: number; stderr: string };
type Refusal = Exit | DemoProcess;

/**
 * A suite's refused starts: the demo run with the bad environment of each key (`envOf`, the key
 * itself by default; beside a port of its own and an in-memory database), all begun in one
 * beforeAll; each test awaits its own exit with `exitOf(key)`, which stops a demo that started
 * after all and fails the test.
 */
export function refusalsForSuite<Key>(keys: readonly Key[], envOf: (key: Key) => Record<string, string> = (key) => key as Record<string, string>): (key: Key) => Promise<Exit> {
  const outcomes = new Map<Key, Promise<Refusal>>();
  beforeAll(() => {
    for (const key of keys) {
      const outcome = reserveLoopbackPort().then((port) => runDemo({ PORT: String(port), DATABASE_URL: 'sqlite::memory:', ...envOf(key) }));
      outcome.catch(() => undefined); // its test awaits it
      outcomes.set(key, outcome);
    }
  });
  afterAll(async () => {
    // A demo that started instead of refusing is stopped by its test; here too, should its test not have run.
    await Promise.all(
      [...outcomes.values()].map(async (outcome) => {
        const result = await outcome.catch(() => undefined);
        if (result && !('exitCode' in result)) await result.stop();
      }),
    );
  });
  return async (key) => {
    const outcome = outcomes.get(key);
    if (!outcome) throw new Error(`no refused start was registered for ${JSON.stringify(key)}`);
    const result = await outcome;
    if ('exitCode' in result) return result;
    await result.stop();
    throw new Error('the demo started');
  };
}
