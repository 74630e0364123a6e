/**
 * email-settings: "Your email" while signed in. Whether the address is verified, with
 * `Send verification link` (POST /auth/send-verification) while it is not; the change-of-email form
 * (POST /auth/change-email), put on the page from its template at sign-in and taken off at sign-out.
 */
import { auth } from './api.js';
import { exclusively } from './busy.js';
import { byId, fieldOf, optionalById } from './dom.js';
import { showFieldErrors } from './field-errors.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';
import { sendSignedIn } from './signed-in-send.js';
import { loadCurrentUser, type PageUser, whenSignedIn, whenSignedOut } from './views.js';

const state = optionalById('email-state');
const sendVerification = optionalById('send-verification');
const template = optionalById<HTMLTemplateElement>('change-email-template');
const MAIL_LINE = ' (The demo prints it on its standard output as a MAIL line.)';
let email = '';

// Absent when the demo runs with AUTH_EMAIL_VERIFICATION=off: the library has no email routes then.
if (state && sendVerification) {
  whenSignedIn(showEmailSettings);
  whenSignedOut(() => {
    const form = optionalById('change-email');
    if (form) form.remove();
  });
  sendVerification.addEventListener('click', () => exclusively(sendVerification, askForVerificationLink));
}

function showEmailSettings(user: PageUser): void {
  if (!state || !sendVerification) return;
  email = user.email;
  const verified = user.emailVerified !== false;
  state.textContent = verified ? user.email + ' is verified.' : user.email + ' is not verified yet: open the link we sent to it, or ask for a new one.';
  sendVerification.hidden = verified;
  if (!optionalById('change-email')) addChangeForm();
}

async function askForVerificationLink(): Promise<void> {
  clearMessages();
  const answer = await sendSignedIn(() => auth.email.sendVerification());
  if (!answer) return;
  if (answer.ok) {
    showNotice('A new verification link is on its way to ' + email + '. Links sent before it no longer work.' + MAIL_LINE);
    return;
  }
  if (answer.body.code === 'EMAIL_ALREADY_VERIFIED') {
    // Verified meanwhile (another tab opened the link): the button goes, the heading keeps the keyboard's place.
    await loadCurrentUser();
    showNotice('Your email is already verified.');
    byId('email-settings-title').focus();
    return;
  }
  showRefusal(answer);
}

function addChangeForm(): void {
  if (!template) return;
  const form = template.content.firstElementChild!.cloneNode(true) as HTMLFormElement;
  template.before(form);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void exclusively(form, () => changeEmail(form));
  });
}

async function changeEmail(form: HTMLFormElement): Promise<void> {
  clearMessages();
  const fields = { newEmail: fieldOf(form, 'newEmail'), password: fieldOf(form, 'password') };
  const newEmail = fields.newEmail.value.trim();
  const answer = await sendSignedIn(() => auth.email.change(newEmail, fields.password.value));
  if (!answer) return;
  if (answer.ok) {
    form.reset();
    // The same words whether or not the address already has an account: the page cannot tell (no enumeration).
    showNotice('A message is on its way to ' + newEmail + ': open its link to make it your email. Until then you log in as ' + email + '.' + MAIL_LINE);
    return;
  }
  if (answer.body.code === 'INVALID_CREDENTIALS') {
    showFieldErrors(new Map([[fields.password, ['This is not your current password']]]));
    return;
  }
  showRefusal(answer, { newEmail: fields.newEmail, password: fields.password });
}
