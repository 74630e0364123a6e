/**
 * two-step-challenge: the login's second step. A right password of a user with two-step
 * login answers `{ mfaRequired: true, methods }` and an HttpOnly challenge cookie; a code from the
 * app, or a recovery code, sent to POST /auth/mfa/verify with it signs in as the login would have.
 * A provider login owing the second step comes back to /?mfa=required with that cookie set.
 */
import { attempt, auth } from './api.js';
import { exclusively } from './busy.js';
import { buttonOf, byId, optionalById } from './dom.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';
import { clearStep, showStep } from './steps.js';
import { focusHeading, showOnly, showSignedOut, signedInWith, signedOut } from './views.js';

const card = optionalById('two-step-challenge');
const step = optionalById('two-step-challenge-step');

/** Shows the second step: a code from the app, unless the server offers recovery codes only. 'firstStep' says what the user did already. */
export function startChallenge(methods: readonly string[], firstStep = 'Your password is right.'): void {
  showOnly(card);
  showWay(Array.isArray(methods) && !methods.includes('totp') ? 'recovery' : 'code');
  showNotice(firstStep + ' One more step: a code from your authenticator app.');
}

/**
 * Whether the page was opened by a provider's callback that owes the second step: it redirects to
 * /?mfa=required with the challenge in an HttpOnly cookie, which the page cannot see (docs/guides/two-step.md). The parameter leaves the address bar, so a reload does not ask again.
 */
export function takeChallengeRedirect(): boolean {
  const query = new URLSearchParams(location.search);
  if (query.get('mfa') !== 'required') return false;
  query.delete('mfa');
  const rest = query.toString();
  history.replaceState(null, '', location.pathname + (rest ? '?' + rest : '') + location.hash);
  return card !== null;
}

function showWay(way: 'code' | 'recovery'): void {
  if (!step) return;
  showStep(step, way === 'code' ? 'two-step-challenge-code' : 'two-step-challenge-recovery');
  step.querySelector('input')?.focus();
}

/** The challenge step leaves the page (its fields too) and the log-in form comes back. */
function backToLogin(): void {
  if (step) clearStep(step);
  showSignedOut();
  focusHeading(signedOut);
}

async function verify(form: HTMLFormElement): Promise<void> {
  clearMessages();
  const input = form.querySelector('input');
  if (!input) return;
  const factor = input.name === 'code' ? { code: input.value.replace(/\s+/g, '') } : { recoveryCode: input.value.trim() };
  const answer = await attempt(() => auth.twoStep.verify(factor));
  if (answer.ok) {
    if (step) clearStep(step);
    await signedInWith(answer.body);
    return;
  }
  // No challenge (it expired, or the password changed since): only a new login starts one; the message says so.
  if (answer.body.code === 'MFA_CHALLENGE_INVALID') {
    backToLogin();
    showRefusal(answer);
    return;
  }
  showRefusal(answer);
  input.select();
}

if (card && step) {
  step.addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    void exclusively(form, () => verify(form));
  });
  step.addEventListener('click', (event) => {
    const button = buttonOf(event, 'button[data-action]');
    if (!button) return;
    clearMessages();
    showWay(button.dataset.action === 'use-recovery-code' ? 'recovery' : 'code');
  });
  byId('two-step-challenge-cancel').addEventListener('click', () => {
    clearMessages();
    backToLogin();
  });
}
