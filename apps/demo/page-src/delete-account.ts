/**
 * delete-account: `Delete account` shows the confirmation and moves the keyboard to it;
 * `Yes, delete my account` sends DELETE /auth/me (the client's `deleteAccount`) and, once it answered 204, shows the signed-out
 * page; `Cancel` (or signing out) hides the confirmation again. A refusal (the last administrator,
 * an impersonation) shows its message.
 */
import { auth } from './api.js';
import { exclusively } from './busy.js';
import { byId } from './dom.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';
import { sendSignedIn } from './signed-in-send.js';
import { focusHeading, showSignedOut, signedOut, whenSignedOut } from './views.js';

const open = byId('delete-account');
const confirmation = byId('delete-account-confirm');
const yes = byId('delete-account-yes');
const cancel = byId('delete-account-cancel');

function setOpen(shown: boolean): void {
  confirmation.hidden = !shown;
  open.setAttribute('aria-expanded', String(shown));
}

whenSignedOut(() => setOpen(false));

open.addEventListener('click', () => {
  setOpen(true);
  // The question is read first; the safe answer is not the one focused.
  cancel.focus();
});

cancel.addEventListener('click', () => {
  setOpen(false);
  open.focus();
});

yes.addEventListener('click', () =>
  exclusively(yes, async () => {
    clearMessages();
    const answer = await sendSignedIn(() => auth.deleteAccount());
    if (!answer) return;
    if (!answer.ok) {
      showRefusal(answer);
      return;
    }
    showSignedOut();
    showNotice('Your account is deleted.');
    focusHeading(signedOut);
  }),
);
