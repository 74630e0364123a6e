/**
 * "Users", inside the signed-in card, shown to an admin only (a user holding `users:*`): the script
 * fills the table from GET /auth/admin/users and sends POST /auth/admin/users/<id>/deactivate or
 * /activate for each row's button.
 */
export function usersSection(): string {
  return `    <section id="users" class="users" aria-labelledby="users-title" hidden>
      <h2 id="users-title" tabindex="-1">Users</h2>
      <p id="users-state" class="hint">Checking…</p>
      <table class="users-table">
        <caption class="visually-hidden">Users, newest first</caption>
        <thead><tr><th scope="col">Email</th><th scope="col">Roles</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
        <tbody id="users-rows"></tbody>
      </table>
    </section>
`;
}
