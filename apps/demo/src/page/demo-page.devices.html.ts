/**
 * "Signed-in devices", inside the signed-in card: the script fills the list from GET /auth/sessions
 * (each device's browser, when it signed in and was last used, `Sign out` for every other one) and
 * sends DELETE /auth/sessions for `Sign out everywhere else`.
 */
export function devicesSection(): string {
  return `    <section class="devices" aria-labelledby="devices-title">
      <h2 id="devices-title" tabindex="-1">Signed-in devices</h2>
      <p id="devices-state" class="hint">Checking…</p>
      <ul id="devices" class="devices-list"></ul>
      <button id="sign-out-others" type="button" aria-describedby="sign-out-others-hint">Sign out everywhere else</button>
      <p id="sign-out-others-hint" class="hint">Every device but this one has to log in again.</p>
    </section>
`;
}
