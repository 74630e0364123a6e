/**
 * "Recent activity", inside the signed-in card: the script fills the list from GET /auth/me/activity
 * (the ten newest entries of the user's activity log: what happened, when, from which network and
 * browser). Hidden while the log is off (AUTH_AUDIT=off: the route answers 404).
 */
export function activitySection(): string {
  return `    <section id="activity" class="activity" aria-labelledby="activity-title" hidden>
      <h2 id="activity-title" tabindex="-1">Recent activity</h2>
      <ol id="activity-list" class="activity-list"></ol>
    </section>
`;
}
