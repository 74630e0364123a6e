/**
 * activity: "Recent activity" while signed in. The client's `activity(10)` (GET /auth/me/activity)
 * fills the list, newest first, each entry in words; a 404 (AUTH_AUDIT=off) keeps the section hidden.
 */
import { type ActivityEntry, deviceName } from '#svc/auth/client';
import { auth } from './api.js';
import { optionalById } from './dom.js';
import { sendSignedIn } from './signed-in-send.js';
import { whenSignedIn, whenSignedOut } from './views.js';

const section = optionalById('activity');
const list = optionalById<HTMLOListElement>('activity-list');

/** What each action of the log says to the user. */
const WORDS: Readonly<Record<string, string>> = {
  login: 'Signed in',
  login_failed: 'A sign-in was refused',
  logout: 'Signed out',
  password_changed: 'Password changed',
  password_reset: 'Password reset',
  email_verified: 'Email verified',
  email_changed: 'Email changed',
  two_step_enabled: 'Two-step login turned on',
  two_step_disabled: 'Two-step login turned off',
  recovery_code_used: 'A recovery code was used',
  passkey_added: 'Passkey added',
  passkey_removed: 'Passkey removed',
  identity_linked: 'Provider linked',
  identity_unlinked: 'Provider unlinked',
  account_reclaimed: 'Account secured by proving the email',
  role_granted: 'Role granted',
  role_revoked: 'Role revoked',
  user_deactivated: 'Account deactivated',
  user_activated: 'Account activated',
  impersonation_started: 'An administrator acted as you',
  impersonation_stopped: 'An administrator stopped acting as you',
};

if (section && list) {
  whenSignedIn(() => loadActivity(section, list));
  whenSignedOut(() => {
    section.hidden = true;
    list.replaceChildren();
  });
}

async function loadActivity(section: HTMLElement, list: HTMLOListElement): Promise<void> {
  const answer = await sendSignedIn(() => auth.activity(10));
  if (!answer || !answer.ok) {
    section.hidden = true;
    return;
  }
  list.replaceChildren(...answer.body.map(entryItem));
  section.hidden = false;
}

function entryItem(entry: ActivityEntry): HTMLLIElement {
  const item = document.createElement('li');
  item.append(Object.hasOwn(WORDS, entry.action) ? WORDS[entry.action] : entry.action, ', ');
  const time = item.appendChild(document.createElement('time'));
  time.dateTime = entry.at;
  time.textContent = new Date(entry.at).toLocaleString();
  // The browser in words ("Chrome 156 on Linux"), as the devices list names it.
  const where = [entry.ip, entry.userAgent ? deviceName(entry.userAgent) : null].filter(Boolean).join(', ');
  if (where) item.append(' (' + where + ')');
  return item;
}
