// Self-time per request of a V8 CPU profile (.cpuprofile), by group: svc's own files one by one,
// then node_modules packages, Node's internals, GC, idle.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export function groupOf(url: string, functionName: string): string {
  const svc = /\/(libs\/auth\/src\/.*)$/.exec(url);
  if (svc) return `svc ${svc[1]}`;
  const app = /\/(apps\/demo\/src\/.*)$/.exec(url);
  if (app) return `demo ${app[1]}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `pkg ${pkg[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  if (functionName.startsWith('(')) return functionName;
  return url === '' ? `native ${functionName}` : url;
}

/** Lines `µs/request  share  group`, largest first; `svcFunctions` lists svc's functions too. */
export function summarise(profile: Profile, requests: number, top = 28, svcFunctions = true): string {
  const selfOf = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) selfOf.set(profile.samples[i], (selfOf.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const self = selfOf.get(node.id) ?? 0;
    if (self === 0) continue;
    const group = groupOf(node.callFrame.url, node.callFrame.functionName);
    groups.set(group, (groups.get(group) ?? 0) + self);
    if (group !== '(idle)') busy += self;
    if (group.startsWith('svc ')) {
      const key = `${node.callFrame.functionName || '(anonymous)'} ${group.slice(4)}:${node.callFrame.lineNumber + 1}`;
      functions.set(key, (functions.get(key) ?? 0) + self);
    }
  }
  const line = (us: number, label: string) => `${(us / requests).toFixed(2).padStart(8)} µs/req ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${label}`;
  const svcTotal = [...groups].filter(([group]) => group.startsWith('svc ')).reduce((sum, [, us]) => sum + us, 0);
  const out = [line(busy, 'main thread busy (all but idle)'), line(svcTotal, 'svc frames, self')];
  for (const [group, us] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) out.push(line(us, group));
  if (svcFunctions) {
    out.push('  svc functions:');
    for (const [key, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 20)) out.push(line(us, key));
  }
  return out.join('\n');
}
