/**
 * passkey-sign-in: `Sign in with a passkey`, signed out. POST /auth/passkeys/login/options
 * (no email: the device offers the passkeys it holds for this site), the browser's ceremony, then
 * POST /auth/passkeys/login, whose answer signs in as a login does; all three through the client.
 */
import { attempt, auth } from './api.js';
import { exclusively } from './busy.js';
import { optionalById } from './dom.js';
import { clearMessages, showRefusal } from './messages.js';
import { signedInWith } from './views.js';

const button = optionalById('passkey-sign-in');

async function signInWithPasskey(): Promise<void> {
  clearMessages();
  // Options, the device's ceremony (its failure in plain words), then the login.
  const answer = await attempt(() => auth.passkeys.signIn());
  if (!answer.ok) {
    showRefusal(answer);
    return;
  }
  await signedInWith(answer.body);
}

if (button) button.addEventListener('click', () => exclusively(button, signInWithPasskey));
