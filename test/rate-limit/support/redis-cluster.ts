import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { reserveLoopbackPort } from '../../support/listen.js';
import { eventually } from '../../support/eventually.js';

const run = promisify(execFile);
const MASTERS = 3;

/** Whether redis-server and redis-cli are installed; when they are not, REQUIRE_REDIS=1 makes that a failure. */
export function canStartRedisCluster(): boolean {
  const missing = ['redis-server', 'redis-cli'].filter((binary) => spawnSync(binary, ['--version']).error !== undefined);
  if (missing.length === 0) return true;
  if (process.env.REQUIRE_REDIS === '1') throw new Error(`Redis is required (REQUIRE_REDIS=1) but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed`);
  console.warn(`\n!!! ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed: the Redis Cluster tests are SKIPPED !!!\n`);
  return false;
}

/** A private Redis Cluster of three masters on loopback ports, in a temporary directory. */
export interface RedisClusterUnderTest {
  ports: number[];
  /** An ioredis Cluster client seeded with the first node; closed by stop(). */
  connect(): Cluster;
  /** A plain connection to one node, to ask it about its own keys; closed by stop(). */
  node(port: number): Redis;
  stop(): Promise<void>;
}

export async function startRedisCluster(): Promise<RedisClusterUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-redis-cluster-'));
  const [ports, busPorts] = await distinctPorts(MASTERS);
  const servers: ChildProcess[] = [];
  const clients: (Redis | Cluster)[] = [];
  const stop = async () => {
    // Every client has closed its connections (and given up any slot refresh) before a node goes.
    await Promise.all(clients.splice(0).map((client) => client.quit().catch(() => client.disconnect())));
    await Promise.all(servers.map(terminate));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const [i, port] of ports.entries()) servers.push(await startNode(dir, port, busPorts[i]));
    await run('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes']);
    const nodes = ports.map((port) => track(clients, new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 })));
    await eventually('every node says cluster_state:ok', async () => (await Promise.all(nodes.map((node) => node.cluster('INFO')))).every((info) => String(info).includes('cluster_state:ok')), 10_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    ports,
    // CLUSTER SLOTS may take longer than ioredis' default second on a busy CI machine.
    connect: () => track(clients, new Cluster([{ host: '127.0.0.1', port: ports[0] }], { slotsRefreshTimeout: 5000, redisOptions: { maxRetriesPerRequest: 1 } })),
    node: (port) => track(clients, new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 })),
    stop,
  };
}

/** One node in the foreground; resolves once it accepts connections (its own log line says so). */
function startNode(dir: string, port: number, busPort: number): Promise<ChildProcess> {
  const args = [
    ...['--port', String(port), '--cluster-port', String(busPort), '--bind', '127.0.0.1'],
    ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--dir', dir],
    ...['--save', '', '--appendonly', 'no', '--daemonize', 'no'],
  ];
  const server = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve(server);
    });
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.once('exit', (code) => reject(new Error(`redis-server on port ${port} exited with ${code}:\n${output}`)));
  });
}

function terminate(server: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    // 'close', not 'exit': the node's pipes are closed too, so nothing of it outlives the suite.
    if (server.stdout!.closed && server.stderr!.closed) return resolve();
    server.once('close', () => resolve());
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
  });
}

/** Client ports and cluster bus ports, all different (the default bus port, port + 10000, may not exist). */
async function distinctPorts(count: number): Promise<[number[], number[]]> {
  const ports = new Set<number>();
  while (ports.size < 2 * count) ports.add(await reserveLoopbackPort());
  const all = [...ports];
  return [all.slice(0, count), all.slice(count)];
}

function track<T extends Redis | Cluster>(clients: (Redis | Cluster)[], client: T): T {
  clients.push(client);
  return client;
}
