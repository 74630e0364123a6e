/** /demo/password-forms.js: the password form (log in, sign up, send reset link) and the reset link's form. */
export const passwordFormsScript = String.raw`import { send } from './api.js';
import { exclusively } from './busy.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';
import { startChallenge } from './two-step-challenge.js';
import { focusHeading, leaveResetView, loadCurrentUser, showSignedOut, signedIn, signedInWith, signedOut } from './views.js';

const account = document.getElementById('account');
if (account) {
  const fields = account.elements;
  const fieldInputs = { email: fields.email, password: fields.password, displayName: fields.displayName };
  account.addEventListener('submit', (event) => {
    event.preventDefault();
    const action = event.submitter ? event.submitter.value : 'login';
    exclusively(account, async () => {
      clearMessages();
      const email = fields.email.value.trim();
      if (action === 'forgot') {
        const answer = await send('POST', '/auth/forgot-password', { email });
        if (answer.ok) showNotice('If ' + email + ' has an account, a link to set a new password is on its way. (The demo prints it on its standard output as a MAIL line.)');
        else showRefusal(answer, fieldInputs);
        return;
      }
      const payload = { email, password: fields.password.value };
      const displayName = fields.displayName.value.trim();
      if (action === 'signup' && displayName) payload.displayName = displayName;
      const answer = await send('POST', action === 'signup' ? '/auth/signup' : '/auth/login', payload);
      if (!answer.ok) {
        showRefusal(answer, fieldInputs);
        return;
      }
      account.reset();
      // A user with two-step login: no credential yet, the second step first.
      if (answer.body && answer.body.mfaRequired === true) {
        startChallenge(answer.body.methods);
        return;
      }
      // A new user with an email to verify: signed in by its cookie, or with AUTH_EMAIL_VERIFICATION=required not until it is verified.
      if (action === 'signup' && answer.body && answer.body.emailVerified === false) {
        if (await loadCurrentUser()) focusHeading(signedIn);
        else showNotice('Your account is created. Open the link we sent to ' + email + ' to verify it, then log in. (The demo prints it on its standard output as a MAIL line.)');
        return;
      }
      await signedInWith(answer.body);
    });
  });
  // Enter in "Display name" means "Sign up", not the form's first button ("Log in").
  fields.displayName.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    account.requestSubmit(account.querySelector('button[value="signup"]'));
  });
}

const reset = document.getElementById('reset');
if (reset) {
  reset.addEventListener('submit', (event) => {
    event.preventDefault();
    exclusively(reset, async () => {
      clearMessages();
      const token = new URLSearchParams(location.search).get('token') || '';
      const answer = await send('POST', '/auth/reset-password', { token, password: reset.elements.password.value });
      if (!answer.ok) {
        showRefusal(answer, { password: reset.elements.password });
        return;
      }
      // The token is spent: it leaves the address bar, the history and the page.
      history.replaceState(null, '', '/');
      leaveResetView();
      showSignedOut();
      showNotice('Your password is changed and every device was signed out. Log in with the new password.');
      focusHeading(signedOut);
    });
  });
}
`;
