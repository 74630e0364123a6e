/**
 * /demo/api.js: requests to the API, and the jwt access token. The token lives in this module only
 * (never in storage, never on screen) and is renewed through the HttpOnly refresh cookie before it
 * expires and after a reload.
 */
export const apiScript = String.raw`export const bearer = document.body.dataset.credential === 'jwt';

let accessToken = null;
let renewalTimer = 0;
let renewal = null;
let renewalDue = () => undefined;
let reauthenticate = null;

/** What runs when a request meets 403 REAUTH_REQUIRED: resolves true once the person confirmed it is them (fresh-sign-in.js). */
export function whenReauthRequired(handler) {
  reauthenticate = handler;
}

/**
 * One JSON request with the page's credential: { ok, status, body, retryAfter } (the header, or null), never a throw.
 * A change refused for want of a recent sign-in goes again, once, after the person confirms it is them.
 */
export async function send(method, path, payload) {
  const answer = await sendOnce(method, path, payload);
  const stale = answer.status === 403 && answer.body && answer.body.code === 'REAUTH_REQUIRED';
  if (stale && reauthenticate && (await reauthenticate(Array.isArray(answer.body.methods) ? answer.body.methods : []))) return sendOnce(method, path, payload);
  return answer;
}

async function sendOnce(method, path, payload) {
  // A request sent while the token is being renewed (a click right after the page loads) waits for
  // the new token: sent without it, a verification link's request would end this very session.
  if (renewal && path !== '/auth/refresh') await renewal;
  const headers = { Accept: 'application/json' };
  if (payload !== undefined) headers['Content-Type'] = 'application/json';
  if (accessToken) headers.Authorization = 'Bearer ' + accessToken;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: payload === undefined ? undefined : JSON.stringify(payload),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    return { ok: false, status: 0, body: { message: 'The demo server cannot be reached. Try again.' }, retryAfter: null };
  }
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { message: 'The server answered ' + response.status + ' without a readable body.' };
  }
  return { ok: response.ok, status: response.status, body, retryAfter: response.headers.get('Retry-After') };
}

/** What runs when the token is due for renewal (the page renews it and reloads the user). */
export function whenRenewalDue(handler) {
  renewalDue = handler;
}

export function keepAccessToken(tokens) {
  accessToken = tokens.access_token;
  clearTimeout(renewalTimer);
  // Renew at three quarters of its life: a background tab's timers may run up to a minute late.
  const seconds = Math.max(5, Number(tokens.expires_in) * 0.75);
  renewalTimer = setTimeout(() => renewalDue(), seconds * 1000);
}

export function forgetAccessToken() {
  accessToken = null;
  clearTimeout(renewalTimer);
}

/** A fresh access token through the refresh cookie; true when there is one. Concurrent calls share one request. */
export function renewAccessToken() {
  renewal ??= refreshOnce().finally(() => (renewal = null));
  return renewal;
}

function refreshOnce() {
  const refresh = async () => {
    accessToken = null;
    const answer = await send('POST', '/auth/refresh');
    if (answer.ok && answer.body && answer.body.access_token) {
      keepAccessToken(answer.body);
      return true;
    }
    forgetAccessToken();
    return false;
  };
  // The refresh cookie is single use: two tabs presenting it at once would look like a stolen
  // token and end the session, so this origin's tabs take turns.
  return navigator.locks ? navigator.locks.request('svc-demo-refresh', refresh) : refresh();
}
`;
