/** password-forms: the password form (log in, sign up, send reset link) and the reset link's form. */
import { attempt, auth } from './api.js';
import { exclusively } from './busy.js';
import { fieldOf, optionalById } from './dom.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';
import { startChallenge } from './two-step-challenge.js';
import { afterSignIn, focusHeading, leaveResetView, showSignedOut, signedInWith, signedOut } from './views.js';

const account = optionalById<HTMLFormElement>('account');
if (account) {
  const email = fieldOf(account, 'email');
  const password = fieldOf(account, 'password');
  const displayNameField = fieldOf(account, 'displayName');
  const fieldInputs = { email, password, displayName: displayNameField };
  account.addEventListener('submit', (event) => {
    event.preventDefault();
    const submitter = event.submitter as HTMLButtonElement | null;
    const action = submitter ? submitter.value : 'login';
    void exclusively(account, async () => {
      clearMessages();
      const address = email.value.trim();
      if (action === 'forgot') {
        const answer = await attempt(() => auth.forgotPassword(address));
        if (answer.ok) showNotice('If ' + address + ' has an account, a link to set a new password is on its way. (The demo prints it on its standard output as a MAIL line.)');
        else showRefusal(answer, fieldInputs);
        return;
      }
      if (action === 'signup') {
        const displayName = displayNameField.value.trim();
        const answer = await attempt(() => auth.signup({ email: address, password: password.value, ...(displayName ? { displayName } : {}) }));
        if (!answer.ok) {
          showRefusal(answer, fieldInputs);
          return;
        }
        account.reset();
        // A new user with an email to verify: signed in by its cookie, or with AUTH_EMAIL_VERIFICATION=required not until it is verified.
        if (answer.body.signedIn && answer.body.user) await signedInWith(answer.body.user);
        else showNotice('Your account is created. Open the link we sent to ' + address + ' to verify it, then log in. (The demo prints it on its standard output as a MAIL line.)');
        return;
      }
      const answer = await attempt(() => auth.login(address, password.value));
      if (!answer.ok) {
        showRefusal(answer, fieldInputs);
        return;
      }
      account.reset();
      // A user with two-step login: no credential yet, the second step first.
      await afterSignIn(answer.body, (methods) => startChallenge(methods));
    });
  });
  // Enter in "Display name" means "Sign up", not the form's first button ("Log in").
  displayNameField.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    account.requestSubmit(account.querySelector<HTMLButtonElement>('button[value="signup"]'));
  });
}

const reset = optionalById<HTMLFormElement>('reset');
if (reset) {
  const password = fieldOf(reset, 'password');
  reset.addEventListener('submit', (event) => {
    event.preventDefault();
    void exclusively(reset, async () => {
      clearMessages();
      const token = new URLSearchParams(location.search).get('token') || '';
      const answer = await attempt(() => auth.resetPassword(token, password.value));
      if (!answer.ok) {
        showRefusal(answer, { password });
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
