/**
 * users: "Users" for an admin (a user holding `users:*`, docs/guides/administration.md).
 * GET /auth/admin/users fills the table, newest first; a row's `Deactivate` is POST
 * /auth/admin/users/<id>/deactivate (every credential of that user refused at its next request),
 * its `Activate` POST /auth/admin/users/<id>/activate. Hidden to everyone else.
 */
import type { AdminUserSummary } from '#svc/auth/client';
import { auth } from './api.js';
import { exclusively } from './busy.js';
import { buttonOf, byId } from './dom.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';
import { sendSignedIn } from './signed-in-send.js';
import { whenSignedIn, whenSignedOut } from './views.js';

const section = byId('users');
const rows = byId('users-rows');
const state = byId('users-state');

whenSignedIn(async (user) => {
  const admin = Array.isArray(user.permissions) && user.permissions.includes('users:*');
  section.hidden = !admin;
  if (admin) await loadUsers();
});
whenSignedOut(() => {
  section.hidden = true;
  rows.replaceChildren();
  state.textContent = 'Checking…';
});

async function loadUsers(): Promise<void> {
  const answer = await sendSignedIn(() => auth.admin.listUsers({ limit: 50 }));
  if (!answer) return;
  if (!answer.ok) {
    state.textContent = 'The users could not be listed.';
    showRefusal(answer);
    return;
  }
  const users = answer.body.users;
  state.textContent = users.length === 1 ? 'One user.' : users.length + ' users' + (answer.body.nextCursor ? ' (the newest 50).' : '.');
  rows.replaceChildren(...users.map(userRow));
}

function userRow(user: AdminUserSummary): HTMLTableRowElement {
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

async function changeUser(id: string, action: string, email: string): Promise<void> {
  clearMessages();
  const answer = await sendSignedIn(() => (action === 'deactivate' ? auth.admin.deactivate(id) : auth.admin.activate(id)));
  if (!answer) return;
  if (!answer.ok) {
    showRefusal(answer);
    return;
  }
  showNotice(email + (action === 'deactivate' ? ' is deactivated: every sign-in of theirs has ended.' : ' is active again.'));
  await loadUsers();
  const again = rows.querySelector<HTMLButtonElement>('button[data-user="' + CSS.escape(id) + '"]');
  if (again) again.focus();
}

rows.addEventListener('click', (event) => {
  const button = buttonOf(event, 'button[data-user]');
  if (!button) return;
  const id = button.dataset.user ?? '';
  const email = byId('user-' + id).textContent ?? '';
  void exclusively(button, () => changeUser(id, button.dataset.action ?? '', email));
});
