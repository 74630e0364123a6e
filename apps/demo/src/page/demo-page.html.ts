import { DEMO_TOTP_ISSUER } from '../demo-auth-options.js';
import type { DemoConfig } from '../demo-config.js';
import { accountsSection } from './demo-page.accounts.html.js';
import { apiKeysSection } from './demo-page.api-keys.html.js';
import { activitySection } from './demo-page.activity.html.js';
import { devicesSection } from './demo-page.devices.html.js';
import { deleteAccountSection } from './demo-page.delete-account.html.js';
import { usersSection } from './demo-page.users.html.js';
import { organizationsSection } from './demo-page.organizations.html.js';
import { type EmailLinkView, emailLinkSection, emailLinkTitle } from './demo-page.email-links.html.js';
import { emailSettingsSection } from './demo-page.email-settings.html.js';
import { passkeySignInSection, passkeysSection } from './demo-page.passkeys.html.js';
import { type PageProvider, pageProviders } from './demo-page.providers.js';
import { escapeHtml } from '#svc/auth';
import { twoStepChallengeSection, twoStepSection } from './demo-page.two-step.html.js';
import { freshSignInDialog } from './demo-page.fresh-sign-in.html.js';

/** Which of the page's views the server renders: the home page, or the landing of a mailed link. */
export type DemoPageView = 'home' | 'reset-password' | 'accept-invitation' | EmailLinkView;

/**
 * The demo's page (docs/demo.md). Static HTML: the script (/demo/main.js) decides which section to show
 * once it knows whether someone is signed in, so nothing is usable before it runs.
 */
export function renderDemoPage(config: DemoConfig, view: DemoPageView): string {
  const password = config.login.includes('password');
  const providers = pageProviders(config);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${view === 'reset-password' ? 'Set a new password' : view === 'home' ? 'Sign in' : view === 'accept-invitation' ? 'Accept an invitation' : emailLinkTitle(view)} · svc demo</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/demo.css">
<script type="module" src="/demo/main.js"></script>
</head>
<body data-credential="${config.credential}">
<header class="bar">
  <a class="brand" href="/">svc demo</a>
  <p id="status" class="session" role="status">Checking your session…</p>
</header>
<main>
  <div id="alert" class="alert" role="alert"></div>
  <p id="notice" class="notice" aria-live="polite"></p>
  <noscript><p class="alert">This page needs JavaScript to talk to the API.</p></noscript>
${view === 'reset-password' ? resetSection(password) : ''}${view === 'verify-email' || view === 'confirm-email' || view === 'cancel-email-change' ? emailLinkSection(view) : ''}${signedOutSection(password, providers, config.passkeys)}${password ? twoStepChallengeSection(DEMO_TOTP_ISSUER) : ''}${signedInSection(providers, password, config.emailVerification !== 'off', config.passkeys, config.apiKeys, config.organizations)}</main>
<footer>
  Sign-in <strong>${config.login.join(', ')}</strong>, credential <strong>${config.credential}</strong> · API under <code>/auth</code> · <a href="/docs">OpenAPI</a>
</footer>
</body>
</html>
`;
}

function signedOutSection(password: boolean, providers: PageProvider[], passkeys: boolean): string {
  if (!password) {
    return `  <section id="signed-out" class="card" hidden>
    <h1 id="signed-out-title" tabindex="-1">Sign in</h1>
    ${providerList(providers)}
  </section>
`;
  }
  const others = providers.length
    ? `    <section class="alternatives" aria-labelledby="providers-title">
      <h2 id="providers-title">Or sign in with a provider</h2>
      ${providerList(providers)}
    </section>
`
    : '';
  return `  <section id="signed-out" class="card" hidden>
    <h1 id="signed-out-title" tabindex="-1">Log in or create an account</h1>
${passwordForm()}${passkeys ? passkeySignInSection() : ''}${others}  </section>
`;
}

/** One form for the three password actions: its buttons say which one, so each label exists once. */
function passwordForm(): string {
  return `    <form id="account" method="post" novalidate>
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" spellcheck="false" required>
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required aria-describedby="password-hint">
        <p id="password-hint" class="hint">At least 8 characters.</p>
      </div>
      <button type="submit" name="action" value="login" class="primary">Log in</button>
      <fieldset>
        <legend>New here?</legend>
        <div class="field">
          <label for="display-name">Display name</label>
          <input id="display-name" name="displayName" autocomplete="nickname" maxlength="64" aria-describedby="display-name-hint">
          <p id="display-name-hint" class="hint">Optional. Uses the email and password above.</p>
        </div>
        <button type="submit" name="action" value="signup">Sign up</button>
      </fieldset>
      <fieldset>
        <legend>Forgot your password?</legend>
        <p id="forgot-hint" class="hint">We send a link to set a new one to the email above.</p>
        <button type="submit" name="action" value="forgot" aria-describedby="forgot-hint">Send reset link</button>
      </fieldset>
    </form>
`;
}

function providerList(providers: PageProvider[]): string {
  if (providers.length === 0) return `<p class="hint">No provider is configured: set OIDC_PROVIDERS or OAUTH2_PROVIDERS.</p>`;
  const items = providers.map(({ method, name }) => `      <li><a href="/auth/${method}/${escapeHtml(name)}/login">Sign in with ${escapeHtml(name)}</a></li>`);
  return `<ul class="providers">\n${items.join('\n')}\n    </ul>`;
}

function resetSection(password: boolean): string {
  const body = password
    ? `<form id="reset" method="post" novalidate>
      <div class="field">
        <label for="new-password">New password</label>
        <input id="new-password" name="password" type="password" autocomplete="new-password" required aria-describedby="new-password-hint">
        <p id="new-password-hint" class="hint">At least 8 characters. Every device signed in to this account is signed out.</p>
      </div>
      <button type="submit" class="primary">Set new password</button>
    </form>`
    : `<p>This demo signs people in through a provider: there is no password to reset here.</p>`;
  return `  <section id="reset-password" class="card" hidden>
    <h1 id="reset-title" tabindex="-1">Set a new password</h1>
    ${body}
    <p><a href="/">Back to the start page</a></p>
  </section>
`;
}

/** `emailRoutes`: the library's email routes are on (AUTH_EMAIL_VERIFICATION not `off`), so the email area has something to call. */
function signedInSection(providers: PageProvider[], password: boolean, emailRoutes: boolean, passkeys: boolean, apiKeys: boolean, organizations: boolean): string {
  const account = `${profileList()}${emailRoutes ? emailSettingsSection() : ''}${organizations ? organizationsSection() : ''}${deleteAccountSection()}`;
  const security = `${accountsSection(providers, password)}${password ? twoStepSection(DEMO_TOTP_ISSUER) : ''}${passkeys ? passkeysSection() : ''}`;
  const devices = `${devicesSection()}${activitySection()}${apiKeys ? apiKeysSection() : ''}`;
  return `  <section id="signed-in" class="card signed-in" hidden>
    <h1 id="signed-in-title" tabindex="-1">Welcome, <span id="user-name"></span></h1>
    <nav class="group-nav" aria-labelledby="group-nav-title"><span id="group-nav-title" class="visually-hidden">Parts of this page</span>
      <a href="#group-account">Account</a> <a href="#group-security">Security</a> <a href="#group-devices">Devices and keys</a>
    </nav>
    <div class="groups">
${group('account', 'Account', account)}${group('security', 'Security', security)}${group('devices', 'Devices and keys', devices)}    </div>
${usersSection()}${freshSignInDialog(passkeys)}    <button id="logout" type="button">Log out</button>
  </section>
`;
}

/**
 * One group of the signed-in card (a column on a wide screen; on a phone, one after the other, with
 * links to each at the top): a labelled group, not a region, so the regions inside it keep their own names.
 */
function group(id: string, title: string, content: string): string {
  return `    <div id="group-${id}" class="group" role="group" aria-labelledby="group-${id}-title">
      <h2 id="group-${id}-title" class="group-title">${title}</h2>
${content}    </div>
`;
}

function profileList(): string {
  return `    <dl class="profile">
      <dt>Email</dt><dd id="user-email"></dd>
      <dt>Display name</dt><dd id="user-display-name"></dd>
      <dt>Plan</dt><dd id="user-plan"></dd>
    </dl>
`;
}
