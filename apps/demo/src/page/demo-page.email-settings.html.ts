/**
 * "Your email", inside the signed-in card: whether the address is verified, `Send verification link`
 * while it is not, and the change-of-email form. The form is a template the script puts on the page
 * only while someone is signed in, so the signed-out form's `Email` and `Password` stay the only
 * fields of those names. Neither the section nor the form is labelled by its heading, which would
 * make it an element labelled "…email" as well (headings still lead a screen reader there).
 */
export function emailSettingsSection(): string {
  return `    <section class="email-settings">
      <h2 id="email-settings-title" tabindex="-1">Your email</h2>
      <p id="email-state"></p>
      <button id="send-verification" type="button" hidden>Send verification link</button>
      <template id="change-email-template">
        <form id="change-email" method="post" novalidate>
          <h3 id="change-email-title">Change your email</h3>
          <div class="field">
            <label for="new-email">New email</label>
            <input id="new-email" name="newEmail" type="email" autocomplete="email" spellcheck="false" required aria-describedby="new-email-hint">
            <p id="new-email-hint" class="hint">We send a link to this address. Your email changes when you open it, and every other device is signed out.</p>
          </div>
          <div class="field">
            <label for="current-password">Current password</label>
            <input id="current-password" name="password" type="password" autocomplete="current-password" required>
          </div>
          <button type="submit">Change email</button>
        </form>
      </template>
    </section>
`;
}
