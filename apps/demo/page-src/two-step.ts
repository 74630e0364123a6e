/**
 * two-step: "Two-step login" while signed in. Off: the password asks POST
 * /auth/mfa/totp/setup for a secret, shown as a QR code (the server's SVG as an image, never as
 * markup) and as text; a code from the app turns it on (POST /auth/mfa/totp/enable), which answers
 * the 10 recovery codes, shown this once with a Copy button. On: password and code make new
 * recovery codes (POST /auth/mfa/recovery-codes) or turn it off (POST /auth/mfa/totp/disable).
 */
import { attempt, auth } from './api.js';
import { exclusively } from './busy.js';
import { buttonOf, fieldOf, optionalById } from './dom.js';
import { clearMessages, showAlert, showNotice, showRefusal } from './messages.js';
import { clearStep, currentStep, showStep } from './steps.js';
import type { PageUser } from './views.js';

// With AUTH_MFA only; the title is there exactly when the step is.
const step = optionalById('two-step-step');
const title = optionalById('two-step-title')!;
// Kept for the Copy button while the codes are on screen, forgotten when they leave it.
let shownCodes: string[] = [];

/** Shows off or on from the user body's mfa (GET /auth/me has it); a setup or codes step in progress stays. */
export async function loadTwoStep(user: PageUser): Promise<void> {
  if (!step) return;
  const current = currentStep(step);
  if (current === 'two-step-scan' || current === 'two-step-codes') return;
  let mfa = user.mfa;
  if (!mfa) {
    const answer = await attempt(() => auth.me());
    mfa = answer.ok ? answer.body.mfa : undefined;
  }
  const wanted = mfa && mfa.totp ? 'two-step-on' : 'two-step-off';
  if (current !== wanted) showStep(step, wanted);
}

/** Signed out: every step leaves the page, with what was typed and any codes shown. */
export function clearTwoStep(): void {
  if (!step) return;
  shownCodes = [];
  clearStep(step);
}

const withoutSpaces = (text: string) => text.replace(/\s+/g, '');

async function setUp(step: HTMLElement, form: HTMLFormElement): Promise<void> {
  clearMessages();
  const password = fieldOf(form, 'password');
  const answer = await attempt(() => auth.twoStep.setup(password.value));
  if (!answer.ok) {
    showRefusal(answer, { password });
    return;
  }
  showStep(step, 'two-step-scan');
  // An image, not markup: the SVG cannot reach the page's DOM or run anything (the CSP allows data: images only).
  step.querySelector<HTMLImageElement>('.two-step-qr')!.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(answer.body.qrSvg);
  step.querySelector('.two-step-secret')!.textContent = answer.body.secret;
  step.querySelector('h3')!.focus();
}

async function enable(step: HTMLElement, form: HTMLFormElement): Promise<void> {
  clearMessages();
  const code = withoutSpaces(fieldOf(form, 'code').value);
  const answer = await attempt(() => auth.twoStep.enable(code));
  if (!answer.ok) {
    showRefusal(answer);
    return;
  }
  showCodes(step, answer.body.recoveryCodes, 'Two-step login is on.');
}

async function manage(step: HTMLElement, form: HTMLFormElement, action: string): Promise<void> {
  clearMessages();
  const password = fieldOf(form, 'password');
  const factor = { code: withoutSpaces(fieldOf(form, 'code').value) };
  if (action === 'disable') {
    const answer = await attempt(() => auth.twoStep.disable(password.value, factor));
    if (!answer.ok) {
      showRefusal(answer, { password });
      return;
    }
    showStep(step, 'two-step-off');
    title.focus();
    showNotice('Two-step login is off. Logging in asks for your password only.');
    return;
  }
  const answer = await attempt(() => auth.twoStep.regenerateRecoveryCodes(password.value, factor));
  if (!answer.ok) {
    showRefusal(answer, { password });
    return;
  }
  showCodes(step, answer.body.recoveryCodes, 'New recovery codes are made: the old ones no longer work.');
}

function showCodes(step: HTMLElement, codes: readonly string[], done: string): void {
  shownCodes = [...codes];
  showStep(step, 'two-step-codes');
  const list = step.querySelector('.recovery-codes')!;
  for (const code of codes) list.appendChild(document.createElement('li')).appendChild(document.createElement('code')).textContent = code;
  step.querySelector('h3')!.focus();
  showNotice(done);
}

async function copyCodes() {
  try {
    await navigator.clipboard.writeText(shownCodes.join('\n') + '\n');
    showNotice('The ' + shownCodes.length + ' recovery codes are copied.');
  } catch {
    showAlert('The browser did not let the page copy them: select the codes and copy them yourself.');
  }
}

if (step) {
  step.addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const submitter = event.submitter as HTMLButtonElement | null;
    if (form.id === 'two-step-setup') void exclusively(form, () => setUp(step, form));
    else if (form.id === 'two-step-enable') void exclusively(form, () => enable(step, form));
    // Enter in a field presses the first button: new recovery codes, the step that takes nothing away.
    else if (form.id === 'two-step-manage') void exclusively(form, () => manage(step, form, submitter ? submitter.value : 'recovery-codes'));
  });
  step.addEventListener('click', (event) => {
    const button = buttonOf(event, 'button[data-action]');
    if (!button) return;
    const action = button.dataset.action;
    if (action === 'copy') {
      void exclusively(button, copyCodes);
      return;
    }
    clearMessages();
    shownCodes = [];
    showStep(step, action === 'done' ? 'two-step-on' : 'two-step-off');
    title.focus();
  });
}
