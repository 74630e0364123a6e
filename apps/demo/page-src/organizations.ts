/**
 * organizations: "Organizations" (AUTH_ORGANIZATIONS=on, docs/guides/organizations.md), through the
 * client's `organizations`. The list (GET /auth/organizations), each with `Switch to <name>`
 * (`activate`: 204, or with jwt a new access token the client keeps); `Create organization`;
 * `Invite` into the active one; on the /accept-invitation?token= landing, `Accept invitation` POSTs
 * the token (a mail scanner's GET spends nothing); `Show projects` reads the demo's /org-projects.
 */
import type { OrganizationBody } from '#svc/auth/client';
import { attemptAppRoute, auth, type Refusal } from './api.js';
import { exclusively } from './busy.js';
import { buttonOf, byId, optionalById } from './dom.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';
import { sendSignedIn } from './signed-in-send.js';
import { type PageUser, showSessionEnded, whenSignedIn, whenSignedOut } from './views.js';

// The section is on the page with AUTH_ORGANIZATIONS=on only.
const section = optionalById('organizations');
if (section) setUpOrganizations(section);

type OrganizationUser = PageUser & { organization?: { id: string } | null };

function setUpOrganizations(section: HTMLElement): void {
  const list = byId<HTMLUListElement>('organizations-list');
  const state = byId('organizations-state');
  const active = byId('active-organization');
  const invitation = byId('invitation');
  const projects = byId('org-projects');
  const heading = section.querySelector('h2')!;
  // The mailed link's token, taken off the address bar at once (it stays in this module only).
  const token = location.pathname === '/accept-invitation' ? new URLSearchParams(location.search).get('token') : null;
  if (token) history.replaceState(null, '', '/');
  let pendingToken = token;
  let activeId: string | null = null;

  whenSignedIn(async (user: OrganizationUser) => {
    activeId = user.organization ? user.organization.id : null;
    invitation.hidden = !pendingToken;
    await loadOrganizations();
  });
  whenSignedOut(() => {
    list.replaceChildren();
    state.textContent = 'Checking…';
    active.textContent = 'Acting in no organization.';
    projects.textContent = '';
    invitation.hidden = true;
  });

  async function loadOrganizations(): Promise<void> {
    const answer = await sendSignedIn(() => auth.organizations.list());
    if (!answer) return;
    if (!answer.ok) {
      state.textContent = 'Your organizations could not be listed.';
      showRefusal(answer);
      return;
    }
    const organizations = answer.body;
    state.textContent = organizations.length === 0 ? 'You belong to no organization yet.' : organizations.length === 1 ? 'One organization.' : organizations.length + ' organizations.';
    const current = organizations.find((organization) => organization.id === activeId);
    active.textContent = current ? 'Acting in ' + current.name + ' as ' + current.role + '.' : 'Acting in no organization.';
    list.replaceChildren(...organizations.map(organizationItem));
  }

  function organizationItem(organization: OrganizationBody): HTMLLIElement {
    const item = document.createElement('li');
    const label = item.appendChild(document.createElement('span'));
    label.textContent = organization.name + ' (' + organization.role + ')';
    if (organization.id === activeId) return item;
    const button = item.appendChild(document.createElement('button'));
    button.type = 'button';
    button.textContent = 'Switch to ' + organization.name;
    button.dataset.organization = organization.id;
    button.dataset.name = organization.name;
    return item;
  }

  async function switchTo(id: string, name: string): Promise<void> {
    clearMessages();
    const answer = await sendSignedIn(() => auth.organizations.activate(id));
    if (!answer) return;
    if (!answer.ok) {
      showRefusal(answer);
      return;
    }
    activeId = id;
    projects.textContent = '';
    showNotice('You now act in ' + name + '.');
    await loadOrganizations();
    heading.focus();
  }

  list.addEventListener('click', (event) => {
    const button = buttonOf(event, 'button[data-organization]');
    if (button) void exclusively(button, () => switchTo(button.dataset.organization ?? '', button.dataset.name ?? ''));
  });

  const createForm = byId<HTMLFormElement>('create-organization');
  const nameField = byId<HTMLInputElement>('organization-name');
  const slugField = byId<HTMLInputElement>('organization-slug');
  createForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void exclusively(createForm.querySelector('button')!, async () => {
      clearMessages();
      const answer = await sendSignedIn(() => auth.organizations.create(nameField.value, slugField.value));
      if (!answer) return;
      if (!answer.ok) {
        showRefusal(answer, { name: nameField, slug: slugField });
        return;
      }
      createForm.reset();
      showNotice(answer.body.name + ' is created; you are its ' + answer.body.role + '.');
      await loadOrganizations();
    });
  });

  const inviteForm = byId<HTMLFormElement>('invite-member');
  const emailField = byId<HTMLInputElement>('invite-email');
  const roleField = byId<HTMLSelectElement>('invite-role');
  inviteForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void exclusively(inviteForm.querySelector('button')!, async () => {
      clearMessages();
      const organization = activeId;
      if (!organization) {
        const refusal: Refusal = { ok: false, status: 403, body: { code: 'ORGANIZATION_REQUIRED', message: 'Switch to an organization first: invitations go into the one you act in.' }, retryAfter: null, methods: [] };
        showRefusal(refusal);
        return;
      }
      const answer = await sendSignedIn(() => auth.organizations.invite(organization, emailField.value, roleField.value));
      if (!answer) return;
      if (!answer.ok) {
        showRefusal(answer, { email: emailField, role: roleField });
        return;
      }
      inviteForm.reset();
      showNotice(answer.body.email + ' is invited as ' + answer.body.role + '.');
    });
  });

  const acceptButton = byId('accept-invitation');
  acceptButton.addEventListener('click', () =>
    exclusively(acceptButton, async () => {
      clearMessages();
      const spent = pendingToken ?? '';
      const answer = await sendSignedIn(() => auth.organizations.acceptInvitation(spent));
      if (!answer) return;
      if (!answer.ok) {
        showRefusal(answer);
        return;
      }
      pendingToken = null;
      invitation.hidden = true;
      showNotice('You joined ' + answer.body.name + ' as ' + answer.body.role + '.');
      await loadOrganizations();
      heading.focus();
    }),
  );

  const projectsButton = byId('show-org-projects');
  projectsButton.addEventListener('click', () =>
    exclusively(projectsButton, async () => {
      clearMessages();
      const answer = await attemptAppRoute<{ organizationId: string }>('/org-projects');
      if (!answer.ok) {
        projects.textContent = '';
        if (answer.status === 401 && answer.body.code === 'UNAUTHENTICATED') showSessionEnded();
        else showRefusal(answer);
        return;
      }
      projects.textContent = 'Projects of organization ' + answer.body.organizationId + '.';
    }),
  );
}
