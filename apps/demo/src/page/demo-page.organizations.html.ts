/**
 * "Organizations", inside the signed-in card (AUTH_ORGANIZATIONS=on): the script lists the user's
 * organizations from GET /auth/organizations with a `Switch to <name>` button each, creates one
 * (`Create organization`), invites an address into the active one (`Invite`), accepts the invitation
 * of a mailed /accept-invitation?token= link (`Accept invitation`), and reads /org-projects.
 */
export function organizationsSection(): string {
  return `    <section id="organizations" class="organizations" aria-labelledby="organizations-title">
      <h2 id="organizations-title" tabindex="-1">Organizations</h2>
      <div id="invitation" class="invitation" hidden>
        <p id="invitation-hint">You have been invited to an organization.</p>
        <button id="accept-invitation" type="button" aria-describedby="invitation-hint">Accept invitation</button>
      </div>
      <p id="active-organization" class="hint">Acting in no organization.</p>
      <p id="organizations-state" class="hint">Checking…</p>
      <ul id="organizations-list" class="organizations-list"></ul>
      <form id="create-organization" novalidate>
        <label for="organization-name">Organization name</label>
        <input id="organization-name" name="name" type="text" maxlength="100" required autocomplete="organization">
        <label for="organization-slug">Slug</label>
        <input id="organization-slug" name="slug" type="text" maxlength="64" required aria-describedby="organization-slug-hint">
        <p id="organization-slug-hint" class="hint">Lower-case letters, digits and hyphens, as in a web address.</p>
        <button type="submit">Create organization</button>
      </form>
      <form id="invite-member" novalidate>
        <label for="invite-email">Address to invite</label>
        <input id="invite-email" name="email" type="email" required autocomplete="off">
        <label for="invite-role">Role</label>
        <select id="invite-role" name="role">
          <option value="member">member</option>
          <option value="admin">admin</option>
          <option value="owner">owner</option>
        </select>
        <button type="submit" aria-describedby="invite-hint">Invite</button>
        <p id="invite-hint" class="hint">Invites into the organization you act in; the link goes by mail.</p>
      </form>
      <button id="show-org-projects" type="button">Show projects</button>
      <p id="org-projects" class="hint" aria-live="polite"></p>
    </section>
`;
}
