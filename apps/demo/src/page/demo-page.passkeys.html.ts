/**
 * Passkeys on the demo page (docs/demo.md). Signed out: `Sign in with a passkey`, no
 * email typed (the device offers the passkeys it holds for this site). Signed in: the list the
 * script fills from GET /auth/passkeys, a `Remove` button each, and `Add a passkey` with an optional name.
 */
export function passkeySignInSection(): string {
  return `    <section class="alternatives" aria-labelledby="passkey-sign-in-title">
      <h2 id="passkey-sign-in-title">Or use a passkey</h2>
      <p id="passkey-sign-in-hint" class="hint">No email needed: your device offers the passkeys it holds for this site.</p>
      <button id="passkey-sign-in" type="button" aria-describedby="passkey-sign-in-hint">Sign in with a passkey</button>
    </section>
`;
}

export function passkeysSection(): string {
  return `    <section class="ways" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title" tabindex="-1">Passkeys</h2>
      <p id="passkeys-empty" class="hint">Checking…</p>
      <ul id="passkeys" class="ways-list" aria-labelledby="passkeys-title"></ul>
      <form id="add-passkey" class="add-passkey" method="post" novalidate>
        <div class="field">
          <label for="passkey-name">Passkey name</label>
          <input id="passkey-name" name="name" autocomplete="off" maxlength="64" aria-describedby="passkey-name-hint">
          <p id="passkey-name-hint" class="hint">Optional, e.g. "Work laptop": it tells your passkeys apart in this list.</p>
        </div>
        <button type="submit">Add a passkey</button>
      </form>
    </section>
`;
}
