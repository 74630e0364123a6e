/**
 * /demo/passkey-sign-in.js: `Sign in with a passkey`, signed out. POST /auth/passkeys/login/options
 * (no email: the device offers the passkeys it holds for this site), the browser's ceremony, then
 * POST /auth/passkeys/login, whose answer is a login's (a user body, or a jwt token body).
 */
export const passkeySignInScript = String.raw`import { send } from './api.js';
import { exclusively } from './busy.js';
import { clearMessages, showAlert, showRefusal } from './messages.js';
import { signedInWith } from './views.js';
import { usePasskey } from './webauthn.js';

const button = document.getElementById('passkey-sign-in');

async function signInWithPasskey() {
  clearMessages();
  const options = await send('POST', '/auth/passkeys/login/options');
  if (!options.ok) {
    showRefusal(options);
    return;
  }
  const asserted = await usePasskey(options.body);
  if (asserted.error) {
    showAlert(asserted.error);
    return;
  }
  const answer = await send('POST', '/auth/passkeys/login', { response: asserted.response });
  if (!answer.ok) {
    showRefusal(answer);
    return;
  }
  await signedInWith(answer.body);
}

if (button) button.addEventListener('click', () => exclusively(button, signInWithPasskey));
`;
