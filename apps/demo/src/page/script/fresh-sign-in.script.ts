/**
 * /demo/fresh-sign-in.js: when a change meets 403 REAUTH_REQUIRED, the "Confirm it's you" dialog asks
 * for the password (or a passkey, when the answer's `methods` offer one), calls POST /auth/reauth (or
 * /auth/reauth/passkey), and tells api.js to send the refused request again. Cancel: the refusal stands.
 */
export const freshSignInScript = String.raw`import { keepAccessToken, send, whenReauthRequired } from './api.js';
import { usePasskey } from './webauthn.js';

const dialog = document.getElementById('reauth');
const template = document.getElementById('reauth-form-template');

if (dialog && template) whenReauthRequired(confirmItIsYou);

/** Resolves true once the person has confirmed (the request may go again), false when they cancel. */
function confirmItIsYou(methods) {
  const step = document.getElementById('reauth-step');
  step.replaceChildren(template.content.cloneNode(true));
  const form = document.getElementById('reauth-form');
  const password = document.getElementById('reauth-password');
  const passkey = document.getElementById('reauth-passkey');
  const error = document.getElementById('reauth-error');
  if (!methods.includes('password')) document.getElementById('reauth-password-field').hidden = true;
  if (passkey) passkey.hidden = !methods.includes('passkey');
  return new Promise((resolve) => {
    const finish = (confirmed) => {
      dialog.close();
      step.replaceChildren();
      resolve(confirmed);
    };
    const refuse = (text) => {
      error.textContent = text;
      error.hidden = false;
    };
    const accept = (answer) => {
      if (answer.body && answer.body.access_token) keepAccessToken(answer.body);
      finish(true);
    };
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (password.value === '') return refuse('Enter your password.');
      const answer = await send('POST', '/auth/reauth', { password: password.value });
      if (answer.ok) return accept(answer);
      password.value = '';
      refuse(answer.status === 401 ? 'That password is not right. Try again.' : (answer.body && answer.body.message) || 'Something went wrong. Try again.');
    });
    passkey?.addEventListener('click', async () => {
      const options = await send('POST', '/auth/reauth/passkey/options');
      if (!options.ok) return refuse('Passkeys cannot be used now. Try your password.');
      const used = await usePasskey(options.body);
      if (used.error) return refuse(used.error);
      const answer = await send('POST', '/auth/reauth/passkey', { response: used.response });
      if (answer.ok) return accept(answer);
      refuse('That passkey could not confirm it is you. Try again.');
    });
    document.getElementById('reauth-cancel').addEventListener('click', () => finish(false));
    dialog.addEventListener('cancel', () => finish(false), { once: true });
    dialog.showModal();
    (methods.includes('password') ? password : passkey).focus();
  });
}
`;
