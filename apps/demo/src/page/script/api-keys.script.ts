/**
 * /demo/api-keys.js: the signed-in card's API keys (docs/guides/machine-access.md). GET /auth/api-keys
 * fills the list; `Create API key` is POST /auth/api-keys, whose answer holds the key this once (shown
 * with `Copy`, never stored by the page); `Revoke` is DELETE /auth/api-keys/<id>.
 */
export const apiKeysScript = String.raw`import { exclusively } from './busy.js';
import { clearMessages, showAlert, showNotice, showRefusal } from './messages.js';
import { sendSignedIn } from './signed-in-send.js';
import { whenSignedIn, whenSignedOut } from './views.js';

const list = document.getElementById('api-keys');
const empty = document.getElementById('api-keys-empty');
const createForm = document.getElementById('create-api-key');
const created = document.getElementById('api-key-created');
const value = document.getElementById('api-key-value');
const copy = document.getElementById('api-key-copy');

function forgetCreatedKey() {
  if (!created) return;
  created.hidden = true;
  value.textContent = '';
}

if (list) {
  whenSignedIn(() => loadApiKeys());
  whenSignedOut(() => {
    forgetCreatedKey();
    list.replaceChildren();
    empty.textContent = 'Checking…';
  });
}

async function loadApiKeys() {
  const answer = await sendSignedIn('GET', '/auth/api-keys');
  if (!answer) return;
  if (!answer.ok || !Array.isArray(answer.body)) {
    list.replaceChildren();
    empty.textContent = 'Your API keys could not be listed.';
    empty.hidden = false;
    showRefusal(answer);
    return;
  }
  list.replaceChildren(...answer.body.map(apiKeyRow));
  empty.textContent = 'No API key yet: create one for a script or another service.';
  empty.hidden = answer.body.length > 0;
}

function apiKeyRow(key) {
  const row = document.createElement('li');
  row.className = 'way';
  const name = row.appendChild(document.createElement('span'));
  name.className = 'way-name';
  name.textContent = key.name;
  const state = row.appendChild(document.createElement('span'));
  state.className = 'way-state';
  state.textContent = key.start + '…, created ' + day(key.createdAt) + (key.expiresAt ? ', expires ' + day(key.expiresAt) : '') + (key.lastUsedAt ? ', last used ' + day(key.lastUsedAt) : ', not used yet');
  const revoke = row.appendChild(document.createElement('button'));
  revoke.type = 'button';
  revoke.textContent = 'Revoke';
  // Several "Revoke" buttons: each says which key it revokes (its name starts with the visible text).
  revoke.setAttribute('aria-label', 'Revoke ' + key.name);
  revoke.dataset.apiKey = key.id;
  revoke.dataset.name = key.name;
  return row;
}

const day = (iso) => new Date(iso).toLocaleDateString();

async function createApiKey() {
  clearMessages();
  forgetCreatedKey();
  const answer = await sendSignedIn('POST', '/auth/api-keys', { name: createForm.elements.name.value.trim() });
  if (!answer) return;
  if (!answer.ok) {
    showRefusal(answer, { name: createForm.elements.name });
    return;
  }
  createForm.reset();
  await loadApiKeys();
  value.textContent = answer.body.key;
  created.hidden = false;
  showNotice('API key "' + answer.body.name + '" is created. Copy it now: it is not shown again.');
  copy.focus();
}

async function revokeApiKey(id, name) {
  clearMessages();
  forgetCreatedKey();
  const answer = await sendSignedIn('DELETE', '/auth/api-keys/' + encodeURIComponent(id));
  if (!answer) return;
  if (!answer.ok) {
    showRefusal(answer);
    return;
  }
  await loadApiKeys();
  showNotice('API key "' + name + '" is revoked: it is refused from now on.');
  document.getElementById('api-keys-title').focus();
}

if (createForm) {
  createForm.addEventListener('submit', (event) => {
    event.preventDefault();
    exclusively(createForm, createApiKey);
  });
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(value.textContent);
      showNotice('The key is copied.');
    } catch {
      showAlert('The browser did not let the page copy: select the key and copy it yourself.');
    }
  });
}

if (list) {
  list.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-api-key]');
    if (!button) return;
    exclusively(button, () => revokeApiKey(button.dataset.apiKey, button.dataset.name));
  });
}
`;
