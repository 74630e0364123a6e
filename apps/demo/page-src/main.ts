/** main (/demo/main.js), the page's entry module: log out, what a background renewal does, and what happens on load. */
import { attempt, auth, restore, whenRenewed } from './api.js';
import { exclusively } from './busy.js';
import { callbackMessage, takeCallbackErrorCode } from './callback-error.js';
import { byId } from './dom.js';
import { clearMessages, showAlert, showNotice, showRefusal } from './messages.js';
import './password-forms.js';
import './passkey-sign-in.js';
import './email-links.js';
import './email-settings.js';
import './devices.js';
import './delete-account.js';
import './users.js';
import './organizations.js';
import './activity.js';
import './api-keys.js';
import './fresh-sign-in.js';
import { startChallenge, takeChallengeRedirect } from './two-step-challenge.js';
import { focusHeading, isResetView, loadCurrentUser, showOnly, showSessionEnded, showSignedIn, showSignedOut, signedOut } from './views.js';

// The client renewed the jwt in the background: the card reloads the user; a renewal refused: the session has ended.
whenRenewed(() => void loadCurrentUser(), showSessionEnded);

const logout = byId('logout');
logout.addEventListener('click', () =>
  exclusively(logout, async () => {
    clearMessages();
    // The client signs out here whatever the server answers; only no answer at all is a refusal.
    const answer = await attempt(() => auth.logout());
    if (!answer.ok) {
      showRefusal(answer);
      return;
    }
    showSignedOut();
    showNotice('You are logged out.');
    focusHeading(signedOut);
  }),
);

// On load: whoever is signed in stays signed in; a failed provider callback says why; one that owes the second step asks for it.
const callbackError = isResetView() ? null : takeCallbackErrorCode();
const challengePending = !isResetView() && takeChallengeRedirect();
if (isResetView()) showOnly(document.querySelector<HTMLElement>('#reset-password, section[data-mail-link]'));
const restored = await restore();
const snapshot = auth.getSnapshot();
let signedInNow = false;
if (!restored.ok) signedInNow = await loadCurrentUser();
else if (snapshot.status === 'signed-in') {
  await showSignedIn(snapshot.user);
  signedInNow = true;
} else showSignedOut();
if (!signedInNow && challengePending) startChallenge(['totp', 'recovery_code'], 'You signed in with your provider.');
if (callbackError) showAlert(await callbackMessage(callbackError));
