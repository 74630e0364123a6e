/**
 * /demo/email-settings.js: "Your email" while signed in. Whether the address is verified, with
 * `Send verification link` (POST /auth/send-verification) while it is not; the change-of-email form
 * (POST /auth/change-email), put on the page from its template at sign-in and taken off at sign-out.
 */
export const emailSettingsScript = String.raw`import { exclusively } from './busy.js';
import { showFieldErrors } from './field-errors.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';
import { sendSignedIn } from './signed-in-send.js';
import { loadCurrentUser, whenSignedIn, whenSignedOut } from './views.js';

const state = document.getElementById('email-state');
const sendVerification = document.getElementById('send-verification');
const template = document.getElementById('change-email-template');
const MAIL_LINE = ' (The demo prints it on its standard output as a MAIL line.)';
let email = '';

// Absent when the demo runs with AUTH_EMAIL_VERIFICATION=off: the library has no email routes then.
if (state) {
  whenSignedIn(showEmailSettings);
  whenSignedOut(() => {
    const form = document.getElementById('change-email');
    if (form) form.remove();
  });
  sendVerification.addEventListener('click', () => exclusively(sendVerification, askForVerificationLink));
}

function showEmailSettings(user) {
  email = user.email;
  const verified = user.emailVerified !== false;
  state.textContent = verified ? user.email + ' is verified.' : user.email + ' is not verified yet: open the link we sent to it, or ask for a new one.';
  sendVerification.hidden = verified;
  if (!document.getElementById('change-email')) addChangeForm();
}

async function askForVerificationLink() {
  clearMessages();
  const answer = await sendSignedIn('POST', '/auth/send-verification');
  if (!answer) return;
  if (answer.ok) {
    showNotice('A new verification link is on its way to ' + email + '. Links sent before it no longer work.' + MAIL_LINE);
    return;
  }
  if (answer.body && answer.body.code === 'EMAIL_ALREADY_VERIFIED') {
    // Verified meanwhile (another tab opened the link): the button goes, the heading keeps the keyboard's place.
    await loadCurrentUser();
    showNotice('Your email is already verified.');
    document.getElementById('email-settings-title').focus();
    return;
  }
  showRefusal(answer);
}

function addChangeForm() {
  const form = template.content.firstElementChild.cloneNode(true);
  template.before(form);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    exclusively(form, () => changeEmail(form));
  });
}

async function changeEmail(form) {
  clearMessages();
  const fields = form.elements;
  const newEmail = fields.newEmail.value.trim();
  const answer = await sendSignedIn('POST', '/auth/change-email', { newEmail, password: fields.password.value });
  if (!answer) return;
  if (answer.ok) {
    form.reset();
    // The same words whether or not the address already has an account: the page cannot tell (no enumeration).
    showNotice('A message is on its way to ' + newEmail + ': open its link to make it your email. Until then you log in as ' + email + '.' + MAIL_LINE);
    return;
  }
  if (answer.body && answer.body.code === 'INVALID_CREDENTIALS') {
    showFieldErrors(new Map([[fields.password, ['This is not your current password']]]));
    return;
  }
  showRefusal(answer, { newEmail: fields.newEmail, password: fields.password });
}
`;
