/**
 * api-keys: the signed-in card's API keys (docs/guides/machine-access.md). GET /auth/api-keys
 * fills the list; `Create API key` is POST /auth/api-keys, whose answer holds the key this once (shown
 * with `Copy`, never stored by the page); `Revoke` is DELETE /auth/api-keys/<id>.
 */
import type { ApiKeyBody } from '#svc/auth/client';
import { auth } from './api.js';
import { exclusively } from './busy.js';
import { buttonOf, byId, fieldOf, optionalById } from './dom.js';
import { clearMessages, showAlert, showNotice, showRefusal } from './messages.js';
import { sendSignedIn } from './signed-in-send.js';
import { whenSignedIn, whenSignedOut } from './views.js';

// The section is on the page with AUTH_API_KEYS only; its parts are there exactly when the list is.
const list = optionalById<HTMLUListElement>('api-keys');
const empty = optionalById('api-keys-empty')!;
const createForm = optionalById<HTMLFormElement>('create-api-key')!;
const created = optionalById('api-key-created');
const value = optionalById('api-key-value')!;
const copy = optionalById('api-key-copy')!;

function forgetCreatedKey(): void {
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

async function loadApiKeys(): Promise<void> {
  if (!list) return;
  const answer = await sendSignedIn(() => auth.apiKeys.list());
  if (!answer) return;
  if (!answer.ok) {
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

function apiKeyRow(key: ApiKeyBody): HTMLLIElement {
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

const day = (iso: string) => new Date(iso).toLocaleDateString();

async function createApiKey(): Promise<void> {
  clearMessages();
  forgetCreatedKey();
  const name = fieldOf(createForm, 'name');
  const answer = await sendSignedIn(() => auth.apiKeys.create({ name: name.value.trim() }));
  if (!answer) return;
  if (!answer.ok) {
    showRefusal(answer, { name });
    return;
  }
  createForm.reset();
  await loadApiKeys();
  value.textContent = answer.body.key;
  if (created) created.hidden = false;
  showNotice('API key "' + answer.body.name + '" is created. Copy it now: it is not shown again.');
  copy.focus();
}

async function revokeApiKey(id: string, name: string): Promise<void> {
  clearMessages();
  forgetCreatedKey();
  const answer = await sendSignedIn(() => auth.apiKeys.revoke(id));
  if (!answer) return;
  if (!answer.ok) {
    showRefusal(answer);
    return;
  }
  await loadApiKeys();
  showNotice('API key "' + name + '" is revoked: it is refused from now on.');
  byId('api-keys-title').focus();
}

if (createForm) {
  createForm.addEventListener('submit', (event) => {
    event.preventDefault();
    exclusively(createForm, createApiKey);
  });
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(value.textContent ?? '');
      showNotice('The key is copied.');
    } catch {
      showAlert('The browser did not let the page copy: select the key and copy it yourself.');
    }
  });
}

if (list) {
  list.addEventListener('click', (event) => {
    const button = buttonOf(event, 'button[data-api-key]');
    if (!button) return;
    void exclusively(button, () => revokeApiKey(button.dataset.apiKey ?? '', button.dataset.name ?? ''));
  });
}
