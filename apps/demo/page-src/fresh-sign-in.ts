/**
 * fresh-sign-in: when a change meets 403 REAUTH_REQUIRED, the "Confirm it's you" dialog asks for the
 * password (or a passkey, when the answer's `methods` offer one), calls the client's `reauth` (POST
 * /auth/reauth) or `reauthWithPasskey` (POST /auth/reauth/passkey), and api.js sends the refused
 * change again, once. Cancel: the refusal stands.
 */
import { attempt, auth, whenReauthRequired } from './api.js';
import { byId, optionalById } from './dom.js';

const dialog = optionalById<HTMLDialogElement>('reauth');
const template = optionalById<HTMLTemplateElement>('reauth-form-template');

if (dialog && template) whenReauthRequired((methods) => confirmItIsYou(dialog, template, methods));

/** Resolves true once the person has confirmed (the request may go again), false when they cancel. */
function confirmItIsYou(dialog: HTMLDialogElement, template: HTMLTemplateElement, methods: readonly string[]): Promise<boolean> {
  const step = byId('reauth-step');
  step.replaceChildren(template.content.cloneNode(true));
  const form = byId<HTMLFormElement>('reauth-form');
  const password = byId<HTMLInputElement>('reauth-password');
  // Only where passkeys are on.
  const passkey = optionalById<HTMLButtonElement>('reauth-passkey');
  const error = byId('reauth-error');
  if (!methods.includes('password')) byId('reauth-password-field').hidden = true;
  if (passkey) passkey.hidden = !methods.includes('passkey');
  return new Promise((resolve) => {
    const finish = (confirmed: boolean) => {
      dialog.close();
      step.replaceChildren();
      resolve(confirmed);
    };
    const refuse = (text: string) => {
      error.textContent = text;
      error.hidden = false;
    };
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (password.value === '') return refuse('Enter your password.');
      const answer = await attempt(() => auth.reauth({ password: password.value }), { reauth: false });
      if (answer.ok) return finish(true);
      password.value = '';
      const message = Array.isArray(answer.body.message) ? answer.body.message.join(' ') : answer.body.message;
      refuse(answer.status === 401 ? 'That password is not right. Try again.' : message || 'Something went wrong. Try again.');
    });
    passkey?.addEventListener('click', async () => {
      const answer = await attempt(() => auth.reauthWithPasskey(), { reauth: false });
      if (answer.ok) return finish(true);
      // The device's ceremony failed (status 0): its own words; the server refused: the passkey did not confirm.
      refuse(answer.status === 0 ? String(answer.body.message) : 'That passkey could not confirm it is you. Try again.');
    });
    byId('reauth-cancel').addEventListener('click', () => finish(false));
    dialog.addEventListener('cancel', () => finish(false), { once: true });
    dialog.showModal();
    (methods.includes('password') || !passkey ? password : passkey).focus();
  });
}
