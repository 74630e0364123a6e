/**
 * "API keys", inside the signed-in card, with AUTH_API_KEYS=on (docs/demo.md): the list the script
 * fills from GET /auth/api-keys with a `Revoke` button each, and `Create API key` with a name. A new
 * key is shown once, with a `Copy` button, until the next change of the list.
 */
export function apiKeysSection(): string {
  return `    <section id="api-keys-area" class="ways" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title" tabindex="-1">API keys</h2>
      <p id="api-keys-empty" class="hint">Checking…</p>
      <ul id="api-keys" class="ways-list" aria-labelledby="api-keys-title"></ul>
      <div id="api-key-created" class="notice" hidden>
        <p id="api-key-created-hint">Your new key, shown this once: copy it now. It works as <code>Authorization: Bearer</code> on <code>/profile</code> and <code>/auth/me</code>.</p>
        <p><code id="api-key-value" aria-describedby="api-key-created-hint"></code> <button id="api-key-copy" type="button">Copy</button></p>
      </div>
      <form id="create-api-key" method="post" novalidate>
        <div class="field">
          <label for="api-key-name">API key name</label>
          <input id="api-key-name" name="name" autocomplete="off" maxlength="64" required aria-describedby="api-key-name-hint">
          <p id="api-key-name-hint" class="hint">What will use it, e.g. "Nightly export".</p>
        </div>
        <button type="submit">Create API key</button>
      </form>
    </section>
`;
}
