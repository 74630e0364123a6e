import { escapeHtml } from '#svc/auth';

/**
 * "Two-step login" (docs/demo.md): TOTP from an authenticator app, with recovery codes.
 * Each step is a `<template>` the script copies into place while it is current and removes after,
 * so the page never holds two fields of one label (`Password`, `Code`) for a program to confuse.
 */

/** Inside the signed-in card: turn two-step login on (password, QR code, code, recovery codes) or manage it. */
export function twoStepSection(issuer: string): string {
  return `    <section id="two-step" class="two-step" aria-labelledby="two-step-title">
      <h2 id="two-step-title" tabindex="-1">Two-step login</h2>
      <div id="two-step-step"></div>
      <template id="two-step-off">
        <p id="two-step-off-text">Off. With it on, logging in also asks for a 6-digit code from an authenticator app on your phone.</p>
        <form id="two-step-setup" method="post" novalidate aria-describedby="two-step-off-text">
          <div class="field">
            <label for="two-step-setup-password">Password</label>
            <input id="two-step-setup-password" name="password" type="password" autocomplete="current-password" required aria-describedby="two-step-setup-hint">
            <p id="two-step-setup-hint" class="hint">Your current password, to set up two-step login.</p>
          </div>
          <button type="submit">Set up two-step login</button>
        </form>
      </template>
      <template id="two-step-scan">
        <h3 tabindex="-1">Add this account to your authenticator app</h3>
        <ol class="two-step-howto">
          <li>Scan the QR code with the app.
            <img class="two-step-qr" width="200" height="200" alt="QR code of the two-step login secret (the same secret is written out below)">
          </li>
          <li>Or type this secret into the app: <code class="two-step-secret" id="two-step-secret"></code></li>
          <li>Enter the 6-digit code the app shows.</li>
        </ol>
        <form id="two-step-enable" method="post" novalidate>
          <div class="field">
            <label for="two-step-enable-code">Code</label>
            <input id="two-step-enable-code" name="code" inputmode="numeric" autocomplete="one-time-code" spellcheck="false" required aria-describedby="two-step-enable-hint">
            <p id="two-step-enable-hint" class="hint">The 6 digits your app shows now for ${escapeHtml(issuer)}.</p>
          </div>
          <div class="actions">
            <button type="submit" class="primary">Turn on two-step login</button>
            <button type="button" data-action="cancel">Cancel</button>
          </div>
        </form>
      </template>
      <template id="two-step-codes">
        <h3 tabindex="-1">Save your recovery codes</h3>
        <p id="two-step-codes-hint">Two-step login is on. If you lose your phone, each of these codes lets you log in once instead of a code from the app. They are shown only now: copy them somewhere safe.</p>
        <ul class="recovery-codes" aria-label="Recovery codes"></ul>
        <div class="actions">
          <button type="button" data-action="copy">Copy</button>
          <button type="button" data-action="done" class="primary">I have saved them</button>
        </div>
      </template>
      <template id="two-step-on">
        <p id="two-step-on-text">On. Logging in asks for a code from your authenticator app, or one of your recovery codes.</p>
        <form id="two-step-manage" method="post" novalidate aria-describedby="two-step-on-text">
          <div class="field">
            <label for="two-step-manage-password">Password</label>
            <input id="two-step-manage-password" name="password" type="password" autocomplete="current-password" required>
          </div>
          <div class="field">
            <label for="two-step-manage-code">Code</label>
            <input id="two-step-manage-code" name="code" inputmode="numeric" autocomplete="one-time-code" spellcheck="false" required aria-describedby="two-step-manage-hint">
            <p id="two-step-manage-hint" class="hint">Your password and a code from your app, to make new recovery codes (the old ones stop working) or to turn two-step login off.</p>
          </div>
          <div class="actions">
            <button type="submit" name="action" value="recovery-codes">Make new recovery codes</button>
            <button type="submit" name="action" value="disable">Turn off two-step login</button>
          </div>
        </form>
      </template>
    </section>
`;
}

/** The login's second step, its own card: a code from the app, or a recovery code instead. */
export function twoStepChallengeSection(issuer: string): string {
  return `  <section id="two-step-challenge" class="card" aria-labelledby="two-step-challenge-title" hidden>
    <h1 id="two-step-challenge-title" tabindex="-1">Two-step login</h1>
    <div id="two-step-challenge-step"></div>
    <p><button type="button" id="two-step-challenge-cancel">Cancel</button></p>
    <template id="two-step-challenge-code">
      <form id="two-step-verify" method="post" novalidate>
        <div class="field">
          <label for="two-step-verify-code">Code</label>
          <input id="two-step-verify-code" name="code" inputmode="numeric" autocomplete="one-time-code" spellcheck="false" required aria-describedby="two-step-verify-hint">
          <p id="two-step-verify-hint" class="hint">The 6 digits your authenticator app shows for ${escapeHtml(issuer)}.</p>
        </div>
        <button type="submit" class="primary">Verify</button>
      </form>
      <p><button type="button" data-action="use-recovery-code">Use a recovery code instead</button></p>
    </template>
    <template id="two-step-challenge-recovery">
      <form id="two-step-verify" method="post" novalidate>
        <div class="field">
          <label for="two-step-verify-recovery-code">Recovery code</label>
          <input id="two-step-verify-recovery-code" name="recoveryCode" autocomplete="off" spellcheck="false" required aria-describedby="two-step-verify-recovery-hint">
          <p id="two-step-verify-recovery-hint" class="hint">One of the codes you saved when you turned on two-step login. Each works once.</p>
        </div>
        <button type="submit" class="primary">Verify</button>
      </form>
      <p><button type="button" data-action="use-code">Use a code from your app instead</button></p>
    </template>
  </section>
`;
}
