/**
 * api: the page's one way to svc, the typed client `svc/client` (docs/guides/client.md). The jwt
 * access token lives in the client's memory only (never in storage, never on screen) and the client
 * renews it through the HttpOnly refresh cookie before it expires; after a reload, `restore()` asks.
 */
import { createSvcClient, isSvcError, type SvcClient } from '#svc/auth/client';
import { CeremonyError, pageCeremonies } from './webauthn.js';

export const bearer = document.body.dataset.credential === 'jwt';

let restoring = false;
let renewed: () => void = () => undefined;
let refused: () => void = () => undefined;

/**
 * The client's fetch. A renewal (POST /auth/refresh, but not the one `restore()` sends after a
 * reload) tells the page how it went: renewed, or refused for good (the credential is gone).
 */
async function observedFetch(input: string, init: RequestInit): Promise<Response> {
  const response = await fetch(input, { ...init, cache: 'no-store' });
  if (!restoring && init.method === 'POST' && new URL(input, location.href).pathname === '/auth/refresh') {
    if (response.ok) queueMicrotask(() => renewed());
    else if (response.status === 401 || response.status === 403) queueMicrotask(() => refused());
  }
  return response;
}

export const auth: SvcClient = createSvcClient({
  baseUrl: location.origin,
  credential: bearer ? 'jwt' : 'session',
  fetch: observedFetch,
  webauthn: pageCeremonies,
});

/** What a refused request says, in the shape the page's messages read: the svc body's `code` and `message`, and Retry-After. */
export interface Refusal {
  ok: false;
  /** 0: no answer, or the device's passkey ceremony failed. */
  status: number;
  body: { code: string; message: string | string[] };
  retryAfter: string | null;
  /** With REAUTH_REQUIRED: how the person may confirm it is them. */
  methods: readonly string[];
}

export type Answer<T> = { ok: true; body: T } | Refusal;

let reauthenticate: ((methods: readonly string[]) => Promise<boolean>) | null = null;

/** What runs when a call meets 403 REAUTH_REQUIRED: resolves true once the person confirmed it is them (fresh-sign-in.js). */
export function whenReauthRequired(handler: (methods: readonly string[]) => Promise<boolean>): void {
  reauthenticate = handler;
}

/**
 * One call of the client: its result, or its refusal; never a throw (a programming error still throws).
 * A change refused for want of a recent sign-in goes again, once, after the person confirms it is them.
 */
export async function attempt<T>(call: () => Promise<T>, options: { reauth?: boolean } = {}): Promise<Answer<T>> {
  const first = await attemptOnce(call);
  if (first.ok || first.body.code !== 'REAUTH_REQUIRED' || options.reauth === false || !reauthenticate) return first;
  return (await reauthenticate(first.methods)) ? attemptOnce(call) : first;
}

async function attemptOnce<T>(call: () => Promise<T>): Promise<Answer<T>> {
  try {
    return { ok: true, body: await call() };
  } catch (error) {
    return refusalOf(error);
  }
}

function refusalOf(error: unknown): Refusal {
  if (error instanceof CeremonyError) return { ok: false, status: 0, body: { code: 'PASSKEY_CEREMONY', message: error.message }, retryAfter: null, methods: [] };
  if (!isSvcError(error)) throw error;
  const retryAfter = error.code === 'RATE_LIMITED' && error.retryAfterSeconds !== null ? String(error.retryAfterSeconds) : null;
  let message: string | string[] = error.message;
  if (error.code === 'VALIDATION_FAILED') message = [...error.problems];
  else if (error.code === 'NETWORK_ERROR') message = 'The demo server cannot be reached. Try again.';
  else if (error.code === 'UNEXPECTED_RESPONSE') message = 'The server answered ' + error.status + ' without a readable body.';
  const methods = error.code === 'REAUTH_REQUIRED' ? error.methods : [];
  return { ok: false, status: error.status, body: { code: error.code, message }, retryAfter, methods };
}

/** What runs after the client renewed the access token (the page reloads the user), and after a renewal was refused (the session has ended). */
export function whenRenewed(onRenewed: () => void, onRefused: () => void): void {
  renewed = onRenewed;
  refused = onRefused;
}

/** After a reload: whether the credential (session cookie, or jwt refresh cookie) still signs someone in. */
export async function restore(): Promise<Answer<boolean>> {
  restoring = true;
  try {
    return await attempt(async () => (await auth.restore()).status === 'signed-in');
  } finally {
    restoring = false;
  }
}

/** A GET of one of the demo's own routes (not svc's: /org-projects) with the page's credential, through the client; answered as `attempt` answers. */
export async function attemptAppRoute<T>(path: string): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await auth.fetch(path, { headers: { Accept: 'application/json' } });
  } catch {
    return { ok: false, status: 0, body: { code: 'NETWORK_ERROR', message: 'The demo server cannot be reached. Try again.' }, retryAfter: null, methods: [] };
  }
  const body = (await response.json().catch(() => null)) as (T & { code?: unknown; message?: unknown }) | null;
  if (response.ok && body !== null) return { ok: true, body };
  const message = body && (typeof body.message === 'string' || Array.isArray(body.message)) ? (body.message as string | string[]) : 'The server answered ' + response.status + ' without a readable body.';
  return { ok: false, status: response.status, body: { code: body && typeof body.code === 'string' ? body.code : 'UNEXPECTED_RESPONSE', message }, retryAfter: response.headers.get('Retry-After'), methods: [] };
}
