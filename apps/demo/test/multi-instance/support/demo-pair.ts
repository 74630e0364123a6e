import { randomBytes } from 'node:crypto';
import { authMigrations } from '#svc/auth';
import { DemoUserColumns1763700000001 } from '../../../src/migrations/1763700000001-demo-user-columns.js';
import { freshDatabase } from '../../../../../test/support/engines.js';
import { reserveLoopbackPort } from '../../../../../test/support/listen.js';
import { type DemoProcess, runDemo } from '../../demo/demo-process.js';

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

/** Several pairs started at once (a suite's describe.each cases), each on its own database; all stopped if one fails to start. */
export async function startDemoPairs<Name extends string>(envs: Record<Name, Record<string, string>>): Promise<Record<Name, DemoPair>> {
  const names = Object.keys(envs) as Name[];
  const results = await Promise.allSettled(names.map((name) => startDemoPair(envs[name])));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await Promise.all(results.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)));
    throw failed.reason;
  }
  return Object.fromEntries(names.map((name, i) => [name, (results[i] as PromiseFulfilledResult<DemoPair>).value])) as Record<Name, DemoPair>;
}
