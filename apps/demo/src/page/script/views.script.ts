/** /demo/views.js: which section shows (signed out, signed in, the reset link's landing) and who is signed in. */
export const viewsScript = String.raw`import { forgetAccessToken, keepAccessToken, send } from './api.js';
import { loadAccounts } from './accounts.js';
import { showAlert, showRefusal } from './messages.js';
import { loadPasskeys } from './passkeys.js';
import { clearTwoStep, loadTwoStep } from './two-step.js';

const byId = (id) => document.getElementById(id);
const status = byId('status');
export const signedOut = byId('signed-out');
export const signedIn = byId('signed-in');
// The login's second step (two-step login), between the two.
const challenge = byId('two-step-challenge');
// The landing of a mailed link: a reset link, or an email link (/verify-email, /confirm-email, /cancel-email-change).
let resetView = byId('reset-password') || document.querySelector('section[data-mail-link]');
// What the other parts of the signed-in card (devices, email) do when someone signs in or out.
const signInHandlers = [];
const signOutHandlers = [];

/** handler(user) runs, and is awaited, each time the signed-in card shows a user. */
export function whenSignedIn(handler) {
  signInHandlers.push(handler);
}

export function whenSignedOut(handler) {
  signOutHandlers.push(handler);
}

export function isResetView() {
  return resetView !== null;
}

/** The reset link is spent: its section leaves the page, the home page's sections take over. */
export function leaveResetView() {
  resetView.remove();
  resetView = null;
  document.title = 'Sign in · svc demo';
}

export function showOnly(section) {
  for (const candidate of [signedOut, signedIn, challenge, resetView]) if (candidate) candidate.hidden = candidate !== section;
}

export async function showSignedIn(user) {
  status.textContent = 'Signed in as ' + user.email;
  byId('user-name').textContent = user.displayName || user.email;
  byId('user-email').textContent = user.email;
  byId('user-display-name').textContent = user.displayName || 'not set';
  byId('user-plan').textContent = user.plan || 'not set';
  if (!resetView) showOnly(signedIn);
  await Promise.all([loadAccounts(), loadPasskeys(), loadTwoStep(user), ...signInHandlers.map((handler) => handler(user))]);
}

export function showSignedOut() {
  forgetAccessToken();
  clearTwoStep();
  status.textContent = 'Not signed in';
  if (!resetView) showOnly(signedOut);
  for (const handler of signOutHandlers) handler();
}

/** The credential was refused for good (ended elsewhere, expired): the signed-out page, and why. */
export function showSessionEnded() {
  showSignedOut();
  showAlert('Your session has ended. Log in again.');
  // The button pressed (or the field typed in) left with the signed-in card.
  focusHeading(signedOut);
}

export function focusHeading(section) {
  const heading = section && section.querySelector('h1');
  if (heading) heading.focus();
}

/** Asks /auth/me who is signed in; false when nobody is (not an error worth an alert). */
export async function loadCurrentUser() {
  const answer = await send('GET', '/auth/me');
  if (answer.ok) {
    await showSignedIn(answer.body);
    return true;
  }
  showSignedOut();
  if (answer.status !== 401) showRefusal(answer);
  return false;
}

/** A login or signup answered: a user body (session) or a token body (jwt). */
export async function signedInWith(body) {
  if (body && body.access_token) {
    keepAccessToken(body);
    await loadCurrentUser();
  } else {
    await showSignedIn(body);
  }
  focusHeading(signedIn);
}
`;
