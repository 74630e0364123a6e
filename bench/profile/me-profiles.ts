// CPU profiles of the jwt and the session GET /auth/me under the same closed-loop load (16
// connections), each in a built demo process of its own, alternated in slices; prints the main
// thread's self-time per request by group of frames (svc's own by file).
// Run (after npm run build): node --conditions=source --import ./bench/ts-register.mjs bench/profile/me-profiles.ts
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { signUp } from '../support/accounts.js';
import { startDemo } from '../support/demo.js';
import { closedLoop, type Load, warmUp } from '../support/load.js';
import { summarise } from './summarise.js';

const CONNECTIONS = 16;
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 6);
const SLICES = Number(process.env.PROFILE_SLICES ?? 2);
const DIR = process.env.PROFILE_DIR ?? '/tmp/svc-me-profiles';
const PRELOAD = fileURLToPath(new URL('./cpu-profile-preload.mjs', import.meta.url));

rmSync(DIR, { recursive: true, force: true });
mkdirSync(DIR, { recursive: true });
const env = (name: string) => ({ NODE_OPTIONS: `--import ${PRELOAD}`, CPU_PROFILE_FILE: `${DIR}/${name}` });
const jwt = await startDemo({ AUTH_STRATEGY: 'jwt', ...env('jwt') });
const session = await startDemo({ AUTH_STRATEGY: 'session', ...env('session') });
try {
  const loads: Record<string, Load> = {
    jwt: { url: `${jwt.baseUrl}/auth/me`, headers: (await signUp(jwt.baseUrl, 'jwt-me@bench.test', 'jwt')).meHeaders, connections: CONNECTIONS },
    session: { url: `${session.baseUrl}/auth/me`, headers: (await signUp(session.baseUrl, 'session-me@bench.test', 'session')).meHeaders, connections: CONNECTIONS },
  };
  for (const load of Object.values(loads)) await warmUp(load, 3);
  const completed: Record<string, number[]> = { jwt: [], session: [] };
  for (let slice = 1; slice <= SLICES; slice++) {
    for (const name of slice % 2 === 1 ? ['jwt', 'session'] : ['session', 'jwt']) {
      const pid = Number(readFileSync(`${DIR}/${name}.pid`, 'utf8'));
      process.kill(pid, 'SIGWINCH');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const result = await closedLoop(loads[name], SECONDS);
      process.kill(pid, 'SIGWINCH');
      while (!existsSync(`${DIR}/${name}.${slice}.done`)) await new Promise((resolve) => setTimeout(resolve, 50));
      completed[name].push(result.completed);
      console.log(`${name} slice ${slice}: ${result.perSecond.toFixed(0)} req/s`);
    }
  }
  console.log(`requests: jwt ${completed.jwt.reduce((a, b) => a + b, 0)} session ${completed.session.reduce((a, b) => a + b, 0)}`);
  for (const name of ['jwt', 'session']) {
    for (let slice = 1; slice <= SLICES; slice++) {
      console.log(`\n== ${name}, slice ${slice}, ${completed[name][slice - 1]} requests`);
      console.log(summarise(JSON.parse(readFileSync(`${DIR}/${name}.${slice}.cpuprofile`, 'utf8')), completed[name][slice - 1]));
    }
  }
} finally {
  await session.stop();
  await jwt.stop();
}
