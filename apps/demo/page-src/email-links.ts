/** email-links: the button of a mailed link's page (/verify-email, /confirm-email, /cancel-email-change) sends its token. */
import { attempt, auth } from './api.js';
import { exclusively } from './busy.js';
import { byId } from './dom.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';
import { focusHeading, leaveResetView, loadCurrentUser, signedIn, signedOut } from './views.js';

const LINKS = {
  'verify-email': (token: string) => auth.email.verify(token),
  'confirm-email': (token: string) => auth.email.confirm(token),
  'cancel-email-change': (token: string) => auth.email.cancelChange(token),
};

const section = document.querySelector<HTMLElement>('section[data-mail-link]');
if (section) {
  const view = section.dataset.mailLink as keyof typeof LINKS;
  const done = {
    'verify-email': 'Your email is verified.',
    'confirm-email': 'Your email is changed, and every other device signed in to your account was signed out.',
    'cancel-email-change': 'The change of your email is cancelled, and every device signed in to your account was signed out.',
  }[view];
  const action = byId('email-link-action');
  action.addEventListener('click', () =>
    exclusively(action, async () => {
      clearMessages();
      const token = new URLSearchParams(location.search).get('token') || '';
      const answer = await attempt(() => LINKS[view](token));
      if (!answer.ok) {
        showRefusal(answer);
        return;
      }
      // The token is spent: it leaves the address bar, the history and the page.
      history.replaceState(null, '', '/');
      leaveResetView();
      const signed = await loadCurrentUser();
      showNotice(signed ? done : done + ' Log in to continue.');
      focusHeading(signed ? signedIn : signedOut);
    }),
  );
}
