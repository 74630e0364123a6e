import { randomBytes } from 'node:crypto';
import { authMigrations } from '#svc/auth';
import { DemoUserColumns1763700000001 } from '../../../apps/demo/src/migrations/1763700000001-demo-user-columns.js';
import { freshDatabase } from '../../support/engines.js';
import { reserveLoopbackPort } from '../../support/listen.js';
import { type DemoProcess, runDemo } from '../../demo/demo-process.js';

export const PUBLIC_URL = 'http://app.example.test';

/** Two demo processes behind one imaginary load balancer: one PostgreSQL database, one Redis, one secret. */
export interface DemoPair {
  instances: [DemoProcess, DemoProcess];
  stop(): Promise<void>;
}

/**
 * Starts instance A on a fresh PostgreSQL database, then instance B once A serves. A has run the
 * migrations by then: two processes migrating one empty database at the same moment collide
 * (TypeORM takes no lock), and the loser only comes up after TypeOrmModule's retry delay.
 */
export async function startDemoPair(env: Record<string, string>): Promise<DemoPair> {
  // A copy of a database migrated as the demo migrates it: the instances find nothing left to run.
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
  const started: DemoProcess[] = [];
  try {
    for (let i = 0; i < 2; i++) started.push(await startOne(shared));
  } catch (error) {
    for (const demo of started) await demo.stop();
    await database.drop();
    throw error;
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
