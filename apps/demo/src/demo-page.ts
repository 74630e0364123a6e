import type { DemoConfig } from './demo-config.js';

/** The demo's one page: sign up, log in (or sign in with a provider), log out, see /me; the script does the talking. */
export function demoPage(config: DemoConfig): string {
  const { strategy } = config;
  const oauth = strategy === 'oauth2' || strategy === 'oidc';
  const providers = (strategy === 'oauth2' ? config.oauth2Providers : strategy === 'oidc' ? config.oidcProviders : []).map((provider) => provider.name);
  // Provider names are letters, digits, '-' and '_' (the library refuses others at startup).
  const providerLinks = providers.map((name) => `<li><a href="/auth/${strategy}/${name}/login">Sign in with ${name}</a></li>`).join('\n');
  const passwordForms = oauth ? '' : PASSWORD_FORMS;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc demo</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1d232a; }
  form { display: grid; grid-template-columns: 9rem 1fr; gap: .4rem .8rem; margin: .6rem 0 1.4rem; }
  form button { grid-column: 2; justify-self: start; }
  section { border-top: 1px solid #d6dbe0; padding-top: .6rem; }
  pre { background: #f3f5f7; padding: .8rem; overflow: auto; min-height: 3rem; }
  .hint { color: #5b6570; font-size: .9em; }
</style>
</head>
<body data-strategy="${strategy}" data-credential="${oauth ? config.oauthCredential : strategy}">
<h1>svc demo</h1>
<p class="hint">Strategy: <strong>${strategy}</strong>. API under <code>/auth</code>, OpenAPI at <a href="/docs">/docs</a>.</p>

${oauth ? `<section>\n<h2>Sign in</h2>\n<ul>\n${providerLinks}\n</ul>\n</section>\n` : ''}${passwordForms}<section>
<h2>Session</h2>
<p><button id="me">GET /auth/me</button> <button id="profile">GET /profile</button> <button id="refresh" hidden>POST /auth/refresh</button> <button id="logout">Log out</button></p>
<pre id="output" aria-live="polite"></pre>
</section>
<script src="/demo.js"></script>
</body>
</html>
`;
}

const PASSWORD_FORMS = `<section>
<h2>Sign up</h2>
<form id="signup">
  <label for="signup-email">Email</label><input id="signup-email" name="email" type="email" required autocomplete="username">
  <label for="signup-password">Password</label><input id="signup-password" name="password" type="password" required minlength="8" autocomplete="new-password">
  <label for="signup-name">Display name</label><input id="signup-name" name="displayName" maxlength="64">
  <button type="submit">Sign up</button>
</form>
</section>

<section>
<h2>Log in</h2>
<form id="login">
  <label for="login-email">Email</label><input id="login-email" name="email" type="email" required autocomplete="username">
  <label for="login-password">Password</label><input id="login-password" name="password" type="password" required autocomplete="current-password">
  <button type="submit">Log in</button>
</form>
</section>

<section id="forgot-section">
<h2>Forgot password</h2>
<form id="forgot">
  <label for="forgot-email">Email</label><input id="forgot-email" name="email" type="email" required>
  <button type="submit">Send reset link</button>
</form>
<p id="forgot-result" class="hint" aria-live="polite"></p>
</section>

<section id="reset-section">
<h2>Reset password</h2>
<form id="reset">
  <label for="reset-token">Token</label><input id="reset-token" name="token" required autocomplete="off">
  <label for="reset-password">New password</label><input id="reset-password" name="password" type="password" required minlength="8" autocomplete="new-password">
  <button type="submit">Set new password</button>
</form>
<p id="reset-result" class="hint" aria-live="polite"></p>
</section>

`;

export const demoScript = `'use strict';
(() => {
  const strategy = document.body.dataset.strategy;
  const output = document.getElementById('output');
  let accessToken = null;

  const show = (label, status, body) => { output.textContent = label + ' -> ' + status + '\\n' + (body ? JSON.stringify(body, null, 2) : ''); };

  async function call(method, path, body) {
    const headers = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (accessToken) headers['Authorization'] = 'Bearer ' + accessToken;
    const response = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    const json = text ? JSON.parse(text) : null;
    if (json && json.access_token) accessToken = json.access_token;
    show(method + ' ' + path, response.status, json);
    return response;
  }

  function formBody(form) {
    const body = {};
    for (const [key, value] of new FormData(form)) if (value !== '') body[key] = value;
    return body;
  }

  const onSubmit = (id, path) => document.getElementById(id)?.addEventListener('submit', (event) => {
    event.preventDefault();
    call('POST', path, formBody(event.target));
  });
  onSubmit('signup', '/auth/signup');
  onSubmit('login', '/auth/login');
  document.getElementById('forgot')?.addEventListener('submit', async (event) => {
    event.preventDefault();
    await call('POST', '/auth/forgot-password', formBody(event.target));
    document.getElementById('forgot-result').textContent =
      'If an account exists for that address, a reset link is on its way (the demo prints it as a MAIL line).';
  });
  document.getElementById('reset')?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const response = await call('POST', '/auth/reset-password', formBody(event.target));
    const result = document.getElementById('reset-result');
    if (response.status === 204) {
      event.target.reset();
      result.textContent = 'Password changed and every session signed out: log in with the new password.';
    } else {
      result.textContent = 'This link is invalid, used or expired, or the password breaks the rules: ask for a new one.';
    }
  });

  document.getElementById('me').addEventListener('click', () => call('GET', '/auth/me'));
  document.getElementById('profile').addEventListener('click', () => call('GET', '/profile'));
  document.getElementById('logout').addEventListener('click', async () => { await call('POST', '/auth/logout'); accessToken = null; });
  const refresh = document.getElementById('refresh');
  if (document.body.dataset.credential === 'jwt') { refresh.hidden = false; refresh.addEventListener('click', () => call('POST', '/auth/refresh')); }

  const token = new URLSearchParams(location.search).get('token');
  if (token && document.getElementById('reset-token')) {
    document.getElementById('reset-token').value = token;
    history.replaceState(null, '', location.pathname); // the token leaves the address bar and history
    document.getElementById('reset-section').scrollIntoView();
  }
})();
`;
