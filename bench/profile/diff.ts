// Self-time per request of every function, one strategy's profiles against the other's (summed over
// their slices): what one path does more of. Run after me-profiles.ts (same PROFILE_DIR):
// node --conditions=source --import ./bench/ts-register.mjs bench/profile/diff.ts <requests-jwt> <requests-session>
import { readdirSync, readFileSync } from 'node:fs';
import { groupOf } from './summarise.js';

const DIR = process.env.PROFILE_DIR ?? '/tmp/svc-me-profiles';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

export function selfByFunction(name: string): Map<string, number> {
  const total = new Map<string, number>();
  for (const file of readdirSync(DIR).filter((entry) => entry.startsWith(`${name}.`) && entry.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(`${DIR}/${file}`, 'utf8')) as Profile;
    const selfOf = new Map<number, number>();
    for (let i = 0; i < profile.samples.length; i++) selfOf.set(profile.samples[i], (selfOf.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
    for (const node of profile.nodes) {
      const self = selfOf.get(node.id) ?? 0;
      if (self === 0) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      const key = `${functionName || '(anonymous)'} [${groupOf(url, functionName)}:${lineNumber + 1}]`;
      total.set(key, (total.get(key) ?? 0) + self);
    }
  }
  return total;
}

const [jwtRequests, sessionRequests] = process.argv.slice(2).map(Number);
const jwt = selfByFunction('jwt');
const session = selfByFunction('session');
const rows = [...new Set([...jwt.keys(), ...session.keys()])].map((key) => ({ key, jwt: (jwt.get(key) ?? 0) / jwtRequests, session: (session.get(key) ?? 0) / sessionRequests }));
console.log('µs/req jwt  session  jwt-session  function');
for (const row of rows.sort((a, b) => Math.abs(b.jwt - b.session) - Math.abs(a.jwt - a.session)).slice(0, Number(process.env.DIFF_TOP ?? 45))) {
  console.log(`${row.jwt.toFixed(2).padStart(7)} ${row.session.toFixed(2).padStart(8)} ${(row.jwt - row.session).toFixed(2).padStart(8)}  ${row.key}`);
}
