/**
 * "Confirm it's you" (docs/guides/account-security.md, fresh sign-in): the dialog the page opens when
 * a change meets 403 REAUTH_REQUIRED. Its form is a `<template>` copied in while the dialog is open
 * and removed after, so the page never holds a second `Password` field otherwise. Its passkey
 * button only where passkeys are on.
 */
export function freshSignInDialog(passkeys: boolean): string {
  return `    <dialog id="reauth" aria-labelledby="reauth-title" aria-describedby="reauth-text">
      <div id="reauth-step"></div>
    </dialog>
    <template id="reauth-form-template">
      <h2 id="reauth-title" tabindex="-1">Confirm it's you</h2>
      <p id="reauth-text">This change needs a recent sign-in. Confirm it's you, and it goes ahead.</p>
      <p id="reauth-error" class="field-error" role="alert" hidden></p>
      <form id="reauth-form" method="dialog" novalidate>
        <div class="field" id="reauth-password-field">
          <label for="reauth-password">Password</label>
          <input id="reauth-password" name="password" type="password" autocomplete="current-password" required>
        </div>
        <div class="actions">
          <button type="submit" id="reauth-submit">Confirm it's you</button>
${passkeys ? '          <button type="button" id="reauth-passkey" hidden>Use a passkey</button>\n' : ''}          <button type="button" id="reauth-cancel">Cancel</button>
        </div>
      </form>
    </template>
`;
}
