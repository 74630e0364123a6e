/**
 * /demo/users.js: "Users" for an admin (a user holding `users:*`, docs/guides/administration.md).
 * GET /auth/admin/users fills the table, newest first; a row's `Deactivate` is POST
 * /auth/admin/users/<id>/deactivate (every credential of that user refused at its next request),
 * its `Activate` POST /auth/admin/users/<id>/activate. Hidden to everyone else.
 */
export const usersScript = String.raw`import { exclusively } from './busy.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';
import { sendSignedIn } from './signed-in-send.js';
import { whenSignedIn, whenSignedOut } from './views.js';

const section = document.getElementById('users');
const rows = document.getElementById('users-rows');
const state = document.getElementById('users-state');

whenSignedIn(async (user) => {
  const admin = Array.isArray(user && user.permissions) && user.permissions.includes('users:*');
  section.hidden = !admin;
  if (admin) await loadUsers();
});
whenSignedOut(() => {
  section.hidden = true;
  rows.replaceChildren();
  state.textContent = 'Checking…';
});

async function loadUsers() {
  const answer = await sendSignedIn('GET', '/auth/admin/users?limit=50');
  if (!answer) return;
  if (!answer.ok || !answer.body || !Array.isArray(answer.body.users)) {
    state.textContent = 'The users could not be listed.';
    showRefusal(answer);
    return;
  }
  const users = answer.body.users;
  state.textContent = users.length === 1 ? 'One user.' : users.length + ' users' + (answer.body.nextCursor ? ' (the newest 50).' : '.');
  rows.replaceChildren(...users.map(userRow));
}

function userRow(user) {
  const row = document.createElement('tr');
  const email = row.appendChild(document.createElement('td'));
  email.id = 'user-' + user.id;
  email.textContent = user.email;
  row.appendChild(document.createElement('td')).textContent = (user.roles || []).join(', ') || 'none';
  row.appendChild(document.createElement('td')).textContent = user.isActive ? 'Active' : 'Deactivated';
  const action = row.appendChild(document.createElement('td'));
  const button = action.appendChild(document.createElement('button'));
  button.type = 'button';
  button.textContent = user.isActive ? 'Deactivate' : 'Activate';
  button.dataset.user = user.id;
  button.dataset.action = user.isActive ? 'deactivate' : 'activate';
  // Every row has a button of this name: its description says whose it is.
  button.setAttribute('aria-describedby', email.id);
  return row;
}

async function changeUser(id, action, email) {
  clearMessages();
  const answer = await sendSignedIn('POST', '/auth/admin/users/' + encodeURIComponent(id) + '/' + action);
  if (!answer) return;
  if (!answer.ok) {
    showRefusal(answer);
    return;
  }
  showNotice(email + (action === 'deactivate' ? ' is deactivated: every sign-in of theirs has ended.' : ' is active again.'));
  await loadUsers();
  const again = rows.querySelector('button[data-user="' + CSS.escape(id) + '"]');
  if (again) again.focus();
}

rows.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-user]');
  if (!button) return;
  const email = document.getElementById('user-' + button.dataset.user).textContent;
  exclusively(button, () => changeUser(button.dataset.user, button.dataset.action, email));
});
`;
