/**
 * The page's script, served as /demo.js (the CSP allows no inline script). It keeps a jwt access
 * token in this closure only (never in storage, never on screen) and renews it through the
 * HttpOnly refresh cookie before it expires and after a reload.
 */
export const demoPageScript = String.raw`'use strict';
(() => {
  const byId = (id) => document.getElementById(id);
  const bearer = document.body.dataset.credential === 'jwt';
  const status = byId('status');
  const alertBox = byId('alert');
  const notice = byId('notice');
  const signedOut = byId('signed-out');
  const signedIn = byId('signed-in');
  let resetView = byId('reset-password');

  let accessToken = null;
  let renewalTimer = 0;
  let renewal = null;
  let busy = false;

  // --- messages -----------------------------------------------------------------------------

  function showAlert(message) {
    notice.textContent = '';
    const problems = Array.isArray(message) ? message : [message || 'Something went wrong. Try again.'];
    if (problems.length === 1) {
      alertBox.textContent = problems[0];
      return;
    }
    const list = document.createElement('ul');
    for (const problem of problems) list.appendChild(document.createElement('li')).textContent = problem;
    alertBox.replaceChildren(list);
  }

  function showNotice(text) {
    alertBox.replaceChildren();
    notice.textContent = text;
  }

  function clearMessages() {
    alertBox.replaceChildren();
    notice.textContent = '';
  }

  // --- talking to the API -------------------------------------------------------------------

  async function send(method, path, payload) {
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
      return { ok: false, status: 0, body: { message: 'The demo server cannot be reached. Try again.' } };
    }
    const text = await response.text();
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = { message: 'The server answered ' + response.status + ' without a readable body.' };
    }
    return { ok: response.ok, status: response.status, body };
  }

  // --- the jwt access token: page memory only -----------------------------------------------

  function keepAccessToken(tokens) {
    accessToken = tokens.access_token;
    clearTimeout(renewalTimer);
    // Renew at three quarters of its life: a background tab's timers may run up to a minute late.
    const seconds = Math.max(5, Number(tokens.expires_in) * 0.75);
    renewalTimer = setTimeout(renewOnSchedule, seconds * 1000);
  }

  function forgetAccessToken() {
    accessToken = null;
    clearTimeout(renewalTimer);
  }

  function renewAccessToken() {
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

  async function renewOnSchedule() {
    if (await renewAccessToken()) {
      await loadCurrentUser();
      return;
    }
    showSignedOut();
    showAlert('Your session has ended. Log in again.');
  }

  // --- views ----------------------------------------------------------------------------------

  function showOnly(section) {
    for (const candidate of [signedOut, signedIn, resetView]) if (candidate) candidate.hidden = candidate !== section;
  }

  function showSignedIn(user) {
    status.textContent = 'Signed in as ' + user.email;
    byId('user-name').textContent = user.displayName || user.email;
    byId('user-email').textContent = user.email;
    byId('user-display-name').textContent = user.displayName || 'not set';
    byId('user-plan').textContent = user.plan || 'not set';
    if (!resetView) showOnly(signedIn);
  }

  function showSignedOut() {
    forgetAccessToken();
    status.textContent = 'Not signed in';
    if (!resetView) showOnly(signedOut);
  }

  function focusHeading(section) {
    const heading = section && section.querySelector('h1');
    if (heading) heading.focus();
  }

  /** Asks /auth/me who is signed in; false when nobody is (not an error worth an alert). */
  async function loadCurrentUser() {
    const answer = await send('GET', '/auth/me');
    if (answer.ok) {
      showSignedIn(answer.body);
      return true;
    }
    showSignedOut();
    if (answer.status !== 401) showAlert(answer.body && answer.body.message);
    return false;
  }

  /** A login or signup answered: a user body (session) or a token body (jwt). */
  async function signedInWith(body) {
    if (body && body.access_token) {
      keepAccessToken(body);
      await loadCurrentUser();
    } else {
      showSignedIn(body);
    }
    focusHeading(signedIn);
  }

  /** Runs one request at a time and marks the form busy meanwhile. */
  async function exclusively(form, work) {
    if (busy) return;
    busy = true;
    form.setAttribute('aria-busy', 'true');
    try {
      await work();
    } finally {
      busy = false;
      form.removeAttribute('aria-busy');
    }
  }

  // --- the password form ----------------------------------------------------------------------

  const account = byId('account');
  if (account) {
    const fields = account.elements;
    account.addEventListener('submit', (event) => {
      event.preventDefault();
      const action = event.submitter ? event.submitter.value : 'login';
      exclusively(account, async () => {
        clearMessages();
        const email = fields.email.value.trim();
        if (action === 'forgot') {
          const answer = await send('POST', '/auth/forgot-password', { email });
          if (answer.ok) showNotice('If ' + email + ' has an account, a link to set a new password is on its way. (The demo prints it on its standard output as a MAIL line.)');
          else showAlert(answer.body && answer.body.message);
          return;
        }
        const payload = { email, password: fields.password.value };
        const displayName = fields.displayName.value.trim();
        if (action === 'signup' && displayName) payload.displayName = displayName;
        const answer = await send('POST', action === 'signup' ? '/auth/signup' : '/auth/login', payload);
        if (!answer.ok) {
          showAlert(answer.body && answer.body.message);
          return;
        }
        account.reset();
        await signedInWith(answer.body);
      });
    });
    // Enter in "Display name" means "Sign up", not the form's first button ("Log in").
    fields.displayName.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      account.requestSubmit(account.querySelector('button[value="signup"]'));
    });
  }

  // --- log out --------------------------------------------------------------------------------

  const logout = byId('logout');
  logout.addEventListener('click', () =>
    exclusively(logout, async () => {
      clearMessages();
      const answer = await send('POST', '/auth/logout');
      if (!answer.ok) {
        showAlert(answer.body && answer.body.message);
        return;
      }
      showSignedOut();
      showNotice('You are logged out.');
      focusHeading(signedOut);
    }),
  );

  // --- the landing page of a reset link --------------------------------------------------------

  const reset = byId('reset');
  if (reset) {
    reset.addEventListener('submit', (event) => {
      event.preventDefault();
      exclusively(reset, async () => {
        clearMessages();
        const token = new URLSearchParams(location.search).get('token') || '';
        const answer = await send('POST', '/auth/reset-password', { token, password: reset.elements.password.value });
        if (!answer.ok) {
          showAlert(answer.body && answer.body.message);
          return;
        }
        // The token is spent: it leaves the address bar, the history and the page.
        history.replaceState(null, '', '/');
        resetView.remove();
        resetView = null;
        document.title = 'Sign in · svc demo';
        showSignedOut();
        showNotice('Your password is changed and every device was signed out. Log in with the new password.');
        focusHeading(signedOut);
      });
    });
  }

  // --- on load: whoever is signed in stays signed in -------------------------------------------

  async function start() {
    if (resetView) showOnly(resetView);
    if (bearer && !(await renewAccessToken())) {
      showSignedOut();
      return;
    }
    await loadCurrentUser();
  }

  start();
})();
`;
