/** /demo.js, the page's entry module: log out, the jwt renewal, and what happens on load. */
export const mainScript = String.raw`import { bearer, renewAccessToken, send, whenRenewalDue } from './demo/api.js';
import { exclusively } from './demo/busy.js';
import { takeCallbackError } from './demo/callback-error.js';
import { clearMessages, showAlert, showNotice, showRefusal } from './demo/messages.js';
import './demo/password-forms.js';
import './demo/passkey-sign-in.js';
import './demo/email-links.js';
import './demo/email-settings.js';
import './demo/devices.js';
import './demo/delete-account.js';
import './demo/activity.js';
import './demo/users.js';
import './demo/api-keys.js';
import './demo/fresh-sign-in.js';
import './demo/organizations.js';
import { startChallenge, takeChallengeRedirect } from './demo/two-step-challenge.js';
import { focusHeading, isResetView, loadCurrentUser, showOnly, showSessionEnded, showSignedOut, signedOut } from './demo/views.js';

whenRenewalDue(async () => {
  if (await renewAccessToken()) {
    await loadCurrentUser();
    return;
  }
  showSessionEnded();
});

const logout = document.getElementById('logout');
logout.addEventListener('click', () =>
  exclusively(logout, async () => {
    clearMessages();
    const answer = await send('POST', '/auth/logout');
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
const callbackError = isResetView() ? null : takeCallbackError();
const challengePending = !isResetView() && takeChallengeRedirect();
if (isResetView()) showOnly(document.querySelector('#reset-password, section[data-mail-link]'));
let signedInNow = false;
if (bearer && !(await renewAccessToken())) showSignedOut();
else signedInNow = await loadCurrentUser();
if (!signedInNow && challengePending) startChallenge(['totp', 'recovery_code'], 'You signed in with your provider.');
if (callbackError) showAlert(callbackError);
`;
