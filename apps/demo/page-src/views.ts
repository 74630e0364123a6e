/** views: which section shows (signed out, signed in, the reset link's landing) and who is signed in. */
import type { ClientUser, SignInOutcome } from '#svc/auth/client';
import { loadAccounts } from './accounts.js';
import { attempt, auth } from './api.js';
import { byId, optionalById } from './dom.js';
import { showAlert, showRefusal } from './messages.js';
import { loadPasskeys } from './passkeys.js';
import { clearTwoStep, loadTwoStep } from './two-step.js';

export type PageUser = ClientUser & { displayName?: string | null; plan?: string | null };

const status = byId('status');
export const signedOut = byId('signed-out');
export const signedIn = byId('signed-in');
// The login's second step (two-step login), between the two.
const challenge = optionalById('two-step-challenge');
// The landing of a mailed link: a reset link, or an email link (/verify-email, /confirm-email, /cancel-email-change).
let resetView: HTMLElement | null = optionalById('reset-password') || document.querySelector<HTMLElement>('section[data-mail-link]');
// What the other parts of the signed-in card (devices, email) do when someone signs in or out.
const signInHandlers: Array<(user: PageUser) => unknown> = [];
const signOutHandlers: Array<() => void> = [];

/** handler(user) runs, and is awaited, each time the signed-in card shows a user. */
export function whenSignedIn(handler: (user: PageUser) => unknown): void {
  signInHandlers.push(handler);
}

export function whenSignedOut(handler: () => void): void {
  signOutHandlers.push(handler);
}

export function isResetView(): boolean {
  return resetView !== null;
}

/** The reset link is spent: its section leaves the page, the home page's sections take over. */
export function leaveResetView(): void {
  resetView?.remove();
  resetView = null;
  document.title = 'Sign in · svc demo';
}

export function showOnly(section: HTMLElement | null): void {
  for (const candidate of [signedOut, signedIn, challenge, resetView]) if (candidate) candidate.hidden = candidate !== section;
}

export async function showSignedIn(user: PageUser): Promise<void> {
  status.textContent = 'Signed in as ' + user.email;
  byId('user-name').textContent = user.displayName || user.email;
  byId('user-email').textContent = user.email;
  byId('user-display-name').textContent = user.displayName || 'not set';
  byId('user-plan').textContent = user.plan || 'not set';
  if (!resetView) showOnly(signedIn);
  await Promise.all([loadAccounts(), loadPasskeys(), loadTwoStep(user), ...signInHandlers.map((handler) => handler(user))]);
}

export function showSignedOut(): void {
  clearTwoStep();
  status.textContent = 'Not signed in';
  if (!resetView) showOnly(signedOut);
  for (const handler of signOutHandlers) handler();
}

/** The credential was refused for good (ended elsewhere, expired): the signed-out page, and why. */
export function showSessionEnded(): void {
  showSignedOut();
  showAlert('Your session has ended. Log in again.');
  // The button pressed (or the field typed in) left with the signed-in card.
  focusHeading(signedOut);
}

export function focusHeading(section: HTMLElement | null): void {
  const heading = section && section.querySelector('h1');
  if (heading) heading.focus();
}

/** Asks /auth/me who is signed in; false when nobody is (not an error worth an alert). */
export async function loadCurrentUser(): Promise<boolean> {
  const answer = await attempt(() => auth.me());
  if (answer.ok) {
    await showSignedIn(answer.body);
    return true;
  }
  showSignedOut();
  if (answer.status !== 401) showRefusal(answer);
  return false;
}

/** A login, a second step or a passkey login signed someone in: the client holds the credential (a session cookie, or a jwt). */
export async function signedInWith(user: ClientUser): Promise<void> {
  // The card shows before its lists load: its heading takes the focus at once, in the same task
  // that says who is signed in, rather than after the lists' requests.
  const lists = showSignedIn(user);
  focusHeading(signedIn);
  await lists;
}

/** The answer of a login: signed in, or the second step owed (`twoStep`). */
export async function afterSignIn(outcome: SignInOutcome, twoStep: (methods: string[]) => void): Promise<void> {
  if (outcome.status === 'two-step-required') twoStep([...outcome.methods]);
  else await signedInWith(outcome.user);
}
