// The load of `npm run soak`, in a worker thread: its allocations (autocannon's, fetch's) live in
// the worker's own V8 heap, so the main thread's heap holds only the application under test.
import autocannon from 'autocannon';
import { parentPort } from 'node:worker_threads';

export interface SoakJob {
  url: string;
  strategy: 'session' | 'jwt';
  meRequests: number;
  logins: number;
  refreshes: number;
}

export interface SoakLoad {
  me: { requests: number; non2xx: number; errors: number; requestsPerSecond: number; seconds: number };
  logins: number;
  refreshes: number;
  failures: string[];
}

const PASSWORD = 'soak password 1';
const CONNECTIONS = 32;

interface Accounts {
  /** Headers that authenticate GET /auth/me (a session cookie or a bearer token). */
  meHeaders: Record<string, string>;
  /** The account that logs in and refreshes, kept apart so that its sessions never evict the reader's. */
  mixerEmail: string;
  /** jwt: the mixer's current refresh cookie. */
  refreshCookie?: string;
}

interface RawTallies {
  totalCompletedRequests: number;
  non2xx: number;
  errors: number;
  /** Seconds. */
  duration: number;
}

let accounts: Accounts | undefined;

async function post(url: string, body?: unknown, cookie?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(cookie ? { Cookie: cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function credentialCookie(response: Response, name: string): string {
  const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
  if (!line) throw new Error(`no ${name} cookie (status ${response.status})`);
  return line.split(';')[0];
}

async function signup(job: SoakJob, email: string): Promise<Response> {
  const response = await post(`${job.url}/auth/signup`, { email, password: PASSWORD });
  if (response.status !== 201) throw new Error(`signup ${email}: ${response.status} ${await response.text()}`);
  return response;
}

async function prepare(job: SoakJob): Promise<Accounts> {
  const suffix = Math.random().toString(36).slice(2, 10);
  const reader = await signup(job, `reader-${suffix}@soak.test`);
  const mixerEmail = `mixer-${suffix}@soak.test`;
  const mixer = await signup(job, mixerEmail);
  if (job.strategy === 'session') return { meHeaders: { cookie: credentialCookie(reader, 'svc_session') }, mixerEmail };
  const { access_token } = (await reader.json()) as { access_token: string };
  return { meHeaders: { authorization: `Bearer ${access_token}` }, mixerEmail, refreshCookie: credentialCookie(mixer, 'svc_refresh') };
}

async function hammerMe(job: SoakJob, headers: Record<string, string>): Promise<SoakLoad['me']> {
  // Off the main thread autocannon answers its raw tallies (it takes itself for one of its own workers).
  const result = (await autocannon({ url: `${job.url}/auth/me`, headers, connections: CONNECTIONS, amount: job.meRequests })) as unknown as RawTallies;
  return { requests: result.totalCompletedRequests, non2xx: result.non2xx, errors: result.errors, requestsPerSecond: result.totalCompletedRequests / result.duration, seconds: result.duration };
}

/** Logins (bcrypt, a new session or refresh family each) and, for jwt, a chain of refreshes, beside the GET /auth/me load. */
async function mix(job: SoakJob, state: Accounts): Promise<Pick<SoakLoad, 'logins' | 'refreshes' | 'failures'>> {
  const failures: string[] = [];
  let logins = 0;
  let refreshes = 0;
  const loginLane = async () => {
    for (let i = 0; i < job.logins; i++) {
      const response = await post(`${job.url}/auth/login`, { email: state.mixerEmail, password: PASSWORD });
      await response.arrayBuffer();
      if (response.status === 200) logins++;
      else failures.push(`login: ${response.status}`);
    }
  };
  const refreshLane = async () => {
    for (let i = 0; i < job.refreshes && state.refreshCookie; i++) {
      const response = await post(`${job.url}/auth/refresh`, undefined, state.refreshCookie);
      await response.arrayBuffer();
      if (response.status !== 200) {
        failures.push(`refresh: ${response.status}`);
        break;
      }
      state.refreshCookie = credentialCookie(response, 'svc_refresh');
      refreshes++;
    }
  };
  await Promise.all([loginLane(), refreshLane()]);
  return { logins, refreshes, failures };
}

parentPort!.on('message', async (job: SoakJob) => {
  try {
    accounts ??= await prepare(job);
    const [me, mixed] = await Promise.all([hammerMe(job, accounts.meHeaders), mix(job, accounts)]);
    parentPort!.postMessage({ me, ...mixed } satisfies SoakLoad);
  } catch (error) {
    parentPort!.postMessage({ error: (error as Error).message });
  }
});
