import { AUTH_ERRORS } from '#svc/auth';
import { accountsScript } from './accounts.script.js';
import { apiKeysScript } from './api-keys.script.js';
import { activityScript } from './activity.script.js';
import { apiScript } from './api.script.js';
import { busyScript } from './busy.script.js';
import { callbackErrorScript } from './callback-error.script.js';
import { deleteAccountScript } from './delete-account.script.js';
import { devicesScript } from './devices.script.js';
import { emailLinksScript } from './email-links.script.js';
import { emailSettingsScript } from './email-settings.script.js';
import { fieldErrorsScript } from './field-errors.script.js';
import { freshSignInScript } from './fresh-sign-in.script.js';
import { mainScript } from './main.script.js';
import { messagesScript } from './messages.script.js';
import { passkeySignInScript } from './passkey-sign-in.script.js';
import { passkeysScript } from './passkeys.script.js';
import { passwordFormsScript } from './password-forms.script.js';
import { refusalScript } from './refusal.script.js';
import { signedInSendScript } from './signed-in-send.script.js';
import { stepsScript } from './steps.script.js';
import { twoStepChallengeScript } from './two-step-challenge.script.js';
import { twoStepScript } from './two-step.script.js';
import { usersScript } from './users.script.js';
import { organizationsScript } from './organizations.script.js';
import { validationProblemsScript } from './validation-problems.script.js';
import { viewsScript } from './views.script.js';
import { webauthnScript } from './webauthn.script.js';

/** The entry module, served as /demo.js (the CSP allows no inline script). */
export const demoPageScript = mainScript;

/** The modules it imports, served as /demo/<name>. */
export const demoPageModules: Readonly<Record<string, string>> = Object.freeze({
  'accounts.js': accountsScript,
  'api-keys.js': apiKeysScript,
  'activity.js': activityScript,
  'api.js': apiScript,
  'busy.js': busyScript,
  'callback-error.js': callbackErrorScript(Object.fromEntries(Object.entries(AUTH_ERRORS).map(([code, [, message]]) => [code, message]))),
  'delete-account.js': deleteAccountScript,
  'devices.js': devicesScript,
  'email-links.js': emailLinksScript,
  'email-settings.js': emailSettingsScript,
  'field-errors.js': fieldErrorsScript,
  'fresh-sign-in.js': freshSignInScript,
  'messages.js': messagesScript,
  'organizations.js': organizationsScript,
  'passkey-sign-in.js': passkeySignInScript,
  'passkeys.js': passkeysScript,
  'password-forms.js': passwordFormsScript,
  'refusal.js': refusalScript,
  'signed-in-send.js': signedInSendScript,
  'steps.js': stepsScript,
  'two-step.js': twoStepScript,
  'two-step-challenge.js': twoStepChallengeScript,
  'users.js': usersScript,
  'validation-problems.js': validationProblemsScript,
  'views.js': viewsScript,
  'webauthn.js': webauthnScript,
});
