/**
 * "Delete account", inside the signed-in card: `Delete account` opens a confirmation (a region
 * that says what is lost) with `Yes, delete my account` and `Cancel`; the script sends DELETE
 * /auth/me for the first, after which the page is signed out.
 */
export function deleteAccountSection(): string {
  return `    <section class="delete-account" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete account</h2>
      <button id="delete-account" type="button" aria-expanded="false" aria-controls="delete-account-confirm">Delete account</button>
      <div id="delete-account-confirm" role="group" aria-labelledby="delete-account-question" hidden>
        <p id="delete-account-question">Delete your account and everything in it? This cannot be undone.</p>
        <button id="delete-account-yes" type="button">Yes, delete my account</button>
        <button id="delete-account-cancel" type="button">Cancel</button>
      </div>
    </section>
`;
}
