/**
 * passkeys: the signed-in card's passkeys. GET /auth/passkeys fills the list; `Add a
 * passkey` is POST /auth/passkeys/register/options, the browser's ceremony, then POST
 * /auth/passkeys/register; `Remove` is DELETE /auth/passkeys/<id>.
 */
import type { PasskeyBody } from '#svc/auth/client';
import { attempt, auth } from './api.js';
import { exclusively } from './busy.js';
import { buttonOf, byId, fieldOf, optionalById } from './dom.js';
import { clearMessages, showAlert, showNotice, showRefusal } from './messages.js';

// With AUTH_PASSKEYS only; the parts are there exactly when the list is.
const list = optionalById<HTMLUListElement>('passkeys');
const empty = optionalById('passkeys-empty')!;
const addForm = optionalById<HTMLFormElement>('add-passkey');

export async function loadPasskeys(): Promise<void> {
  if (!list) return;
  const answer = await attempt(() => auth.passkeys.list());
  if (!answer.ok) {
    list.replaceChildren();
    empty.textContent = 'Your passkeys could not be listed.';
    empty.hidden = false;
    showRefusal(answer);
    return;
  }
  list.replaceChildren(...answer.body.map(passkeyRow));
  empty.textContent = 'No passkey yet: add one to sign in without a password.';
  empty.hidden = answer.body.length > 0;
}

function passkeyRow(passkey: PasskeyBody): HTMLLIElement {
  const row = document.createElement('li');
  row.className = 'way';
  const name = row.appendChild(document.createElement('span'));
  name.className = 'way-name';
  name.textContent = passkey.name;
  const state = row.appendChild(document.createElement('span'));
  state.className = 'way-state';
  state.textContent = 'Added ' + day(passkey.createdAt) + (passkey.lastUsedAt ? ', last used ' + day(passkey.lastUsedAt) : ', not used yet');
  const remove = row.appendChild(document.createElement('button'));
  remove.type = 'button';
  remove.textContent = 'Remove';
  // Several "Remove" buttons: each says which passkey it removes (its name starts with the visible text).
  remove.setAttribute('aria-label', 'Remove ' + passkey.name);
  remove.dataset.passkey = passkey.id;
  remove.dataset.name = passkey.name;
  return row;
}

const day = (iso: string) => new Date(iso).toLocaleDateString();

async function addPasskey(): Promise<void> {
  if (!addForm) return;
  clearMessages();
  const nameField = fieldOf(addForm, 'name');
  const name = nameField.value.trim();
  // Options, the device's ceremony (its failure in plain words), then the registration.
  const answer = await attempt(() => auth.passkeys.register(name || undefined));
  if (!answer.ok) {
    showRefusal(answer, answer.status === 0 ? {} : { name: nameField });
    return;
  }
  addForm.reset();
  await loadPasskeys();
  showNotice('Passkey "' + answer.body.name + '" is added: you can sign in with it from now on.');
}

async function removePasskey(id: string, name: string): Promise<void> {
  clearMessages();
  const answer = await attempt(() => auth.passkeys.remove(id));
  if (!answer.ok && answer.status === 409 && answer.body.code === 'LAST_LOGIN_METHOD') {
    showAlert('"' + name + '" is your only way to sign in, so it stays. Set a password (Send reset link, signed out) or link a provider first, then remove it.');
    return;
  }
  if (!answer.ok) {
    showRefusal(answer);
    return;
  }
  await loadPasskeys();
  showNotice('Passkey "' + name + '" is removed.');
  // Its button is gone: focus goes back to the list's heading.
  byId('passkeys-title').focus();
}

if (addForm) {
  addForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void exclusively(addForm, addPasskey);
  });
}

if (list) {
  list.addEventListener('click', (event) => {
    const button = buttonOf(event, 'button[data-passkey]');
    if (!button) return;
    void exclusively(button, () => removePasskey(button.dataset.passkey ?? '', button.dataset.name ?? ''));
  });
}
