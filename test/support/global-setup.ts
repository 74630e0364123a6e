import { createConnection } from 'node:net';

/** Says loudly, once per run, which real engines the suite can reach; fails when one is required. */
export default async function globalSetup(): Promise<void> {
  const checks = [
    { name: 'PostgreSQL', port: 5432, required: process.env.REQUIRE_POSTGRES === '1' },
    { name: 'Redis', port: 6379, required: process.env.REQUIRE_REDIS === '1' },
  ];
  for (const check of checks) {
    if (await reachable(check.port)) continue;
    if (check.required) throw new Error(`${check.name} on 127.0.0.1:${check.port} is required (REQUIRE_*=1) but not answering`);
    console.warn(`\n!!! ${check.name} on 127.0.0.1:${check.port} is not answering: its tests will be SKIPPED !!!\n`);
  }
}

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
