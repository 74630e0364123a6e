/**
 * /demo/passkeys.js: the signed-in card's passkeys. GET /auth/passkeys fills the list; `Add a
 * passkey` is POST /auth/passkeys/register/options, the browser's ceremony, then POST
 * /auth/passkeys/register; `Remove` is DELETE /auth/passkeys/<id>.
 */
export const passkeysScript = String.raw`import { send } from './api.js';
import { exclusively } from './busy.js';
import { clearMessages, showAlert, showNotice, showRefusal } from './messages.js';
import { createPasskey } from './webauthn.js';

const list = document.getElementById('passkeys');
const empty = document.getElementById('passkeys-empty');
const addForm = document.getElementById('add-passkey');

export async function loadPasskeys() {
  if (!list) return;
  const answer = await send('GET', '/auth/passkeys');
  if (!answer.ok || !Array.isArray(answer.body)) {
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

function passkeyRow(passkey) {
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

const day = (iso) => new Date(iso).toLocaleDateString();

async function addPasskey() {
  clearMessages();
  const options = await send('POST', '/auth/passkeys/register/options');
  if (!options.ok) {
    showRefusal(options);
    return;
  }
  const created = await createPasskey(options.body);
  if (created.error) {
    showAlert(created.error);
    return;
  }
  const payload = { response: created.response };
  const name = addForm.elements.name.value.trim();
  if (name) payload.name = name;
  const answer = await send('POST', '/auth/passkeys/register', payload);
  if (!answer.ok) {
    showRefusal(answer, { name: addForm.elements.name });
    return;
  }
  addForm.reset();
  await loadPasskeys();
  showNotice('Passkey "' + answer.body.name + '" is added: you can sign in with it from now on.');
}

async function removePasskey(id, name) {
  clearMessages();
  const answer = await send('DELETE', '/auth/passkeys/' + encodeURIComponent(id));
  if (answer.status === 409 && answer.body && answer.body.code === 'LAST_LOGIN_METHOD') {
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
  document.getElementById('passkeys-title').focus();
}

if (addForm) {
  addForm.addEventListener('submit', (event) => {
    event.preventDefault();
    exclusively(addForm, addPasskey);
  });
}

if (list) {
  list.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-passkey]');
    if (!button) return;
    exclusively(button, () => removePasskey(button.dataset.passkey, button.dataset.name));
  });
}
`;
