import { randomBytes } from 'node:crypto';
import { authMigrations } from '#svc/auth';
import { DemoUserColumns1763700000001 } from '../../../src/migrations/1763700000001-demo-user-columns.js';
import { freshDatabase } from '../../../../../test/support/engines.js';
import { reserveLoopbackPort } from '../../../../../test/support/listen.js';
import { type DemoProcess, runDemo } from '../../demo/demo-process.js';
import { startForSuite } from '../../demo/suite-demos.js';

export const PUBLIC_URL = 'http://app.example.test';

/** Two demo processes behind one imaginary load balancer: one PostgreSQL database, one Redis, one secret. */
export interface DemoPair {
  instances: [DemoProcess, DemoProcess];
  stop(): Promise<void>;
}

/**
 * Starts instances A and B at once on a fresh PostgreSQL database, a copy of one migrated as the
 * demo migrates it: neither finds a migration left to run (two processes migrating one empty
 * database at the same moment would collide: TypeORM takes no lock).
 */
export async function startDemoPair(env: Record<string, string>): Promise<DemoPair> {
  const database = await freshDatabase('postgres', [...authMigrations, DemoUserColumns1763700000001]);
  const url = (database.options as { url: string }).url;
  const shared = {
    DATABASE_URL: url,
    AUTH_SECRET: randomBytes(48).toString('base64url'),
    REDIS_URL: 'redis://127.0.0.1:6379',
    // The public URL of the load balancer, the same for every instance (reset links, allowed Origin).
    AUTH_BASE_URL: PUBLIC_URL,
    ...env,
  };
  const results = await Promise.allSettled([startOne(shared), startOne(shared)]);
  const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((demo) => demo.stop()));
    await database.drop();
    throw failed.reason;
  }
  return {
    instances: [started[0], started[1]],
    stop: async () => {
      await Promise.all(started.map((demo) => demo.stop()));
      await database.drop();
    },
  };
}

async function startOne(shared: Record<string, string>): Promise<DemoProcess> {
  const port = await reserveLoopbackPort();
  const demo = await runDemo({ ...shared, PORT: String(port) });
  if ('exitCode' in demo) throw new Error(`demo exited with ${demo.exitCode}: ${demo.stderr}`);
  return demo;
}

/**
 * A suite's pairs (its describe.each cases), started with every other start of the suite (see
 * startForSuite) and stopped after its last test. Pairs of one environment are one pair, shared by
 * the modules that ask for it: their tests use addresses and emails of their own.
 */
export function pairsForSuite<Name extends string>(envs: Record<Name, Record<string, string>>): Partial<Record<Name, DemoPair>> {
  const names = Object.keys(envs) as Name[];
  const keyOf = (env: Record<string, string>) => `demo pair ${JSON.stringify(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)))}`;
  return startForSuite(
    Object.fromEntries(names.map((name) => [name, () => startDemoPair(envs[name])])) as Record<Name, () => Promise<DemoPair>>,
    Object.fromEntries(names.map((name) => [name, keyOf(envs[name])])) as Record<Name, string>,
  );
}
