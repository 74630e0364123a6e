/**
 * /demo/organizations.js: "Organizations" (AUTH_ORGANIZATIONS=on, docs/guides/organizations.md).
 * GET /auth/organizations lists the user's organizations, each with `Switch to <name>` (POST
 * /auth/organizations/<id>/activate: 204, or with jwt a new access token); `Create organization` is
 * POST /auth/organizations; `Invite` POST /auth/organizations/<active>/invitations; on the
 * /accept-invitation?token= landing, `Accept invitation` POSTs the token (a mail scanner's GET spends
 * nothing); `Show projects` reads /org-projects.
 */
export const organizationsScript = String.raw`import { keepAccessToken } from './api.js';
import { exclusively } from './busy.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';
import { sendSignedIn } from './signed-in-send.js';
import { whenSignedIn, whenSignedOut } from './views.js';

const byId = (id) => document.getElementById(id);

// The section is on the page with AUTH_ORGANIZATIONS=on only.
if (byId('organizations')) setUpOrganizations();

function setUpOrganizations() {
  const section = byId('organizations');
  const list = byId('organizations-list');
  const state = byId('organizations-state');
  const active = byId('active-organization');
  const invitation = byId('invitation');
  const projects = byId('org-projects');
  // The mailed link's token, taken off the address bar at once (it stays in this module only).
  const token = location.pathname === '/accept-invitation' ? new URLSearchParams(location.search).get('token') : null;
  if (token) history.replaceState(null, '', '/');
  let pendingToken = token;
  let activeId = null;

  whenSignedIn(async (user) => {
    activeId = user && user.organization ? user.organization.id : null;
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

  async function loadOrganizations() {
    const answer = await sendSignedIn('GET', '/auth/organizations');
    if (!answer) return;
    if (!answer.ok || !Array.isArray(answer.body)) {
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

  function organizationItem(organization) {
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

  async function switchTo(id, name) {
    clearMessages();
    const answer = await sendSignedIn('POST', '/auth/organizations/' + encodeURIComponent(id) + '/activate');
    if (!answer) return;
    if (!answer.ok) {
      showRefusal(answer);
      return;
    }
    if (answer.body && answer.body.access_token) keepAccessToken(answer.body);
    activeId = id;
    projects.textContent = '';
    showNotice('You now act in ' + name + '.');
    await loadOrganizations();
    section.querySelector('h2').focus();
  }

  list.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-organization]');
    if (button) exclusively(button, () => switchTo(button.dataset.organization, button.dataset.name));
  });

  const createForm = byId('create-organization');
  createForm.addEventListener('submit', (event) => {
    event.preventDefault();
    exclusively(createForm.querySelector('button'), async () => {
      clearMessages();
      const answer = await sendSignedIn('POST', '/auth/organizations', { name: byId('organization-name').value, slug: byId('organization-slug').value });
      if (!answer) return;
      if (!answer.ok) {
        showRefusal(answer, { name: byId('organization-name'), slug: byId('organization-slug') });
        return;
      }
      createForm.reset();
      showNotice(answer.body.name + ' is created; you are its ' + answer.body.role + '.');
      await loadOrganizations();
    });
  });

  const inviteForm = byId('invite-member');
  inviteForm.addEventListener('submit', (event) => {
    event.preventDefault();
    exclusively(inviteForm.querySelector('button'), async () => {
      clearMessages();
      if (!activeId) {
        showRefusal({ status: 403, body: { code: 'ORGANIZATION_REQUIRED', message: 'Switch to an organization first: invitations go into the one you act in.' } });
        return;
      }
      const answer = await sendSignedIn('POST', '/auth/organizations/' + encodeURIComponent(activeId) + '/invitations', { email: byId('invite-email').value, role: byId('invite-role').value });
      if (!answer) return;
      if (!answer.ok) {
        showRefusal(answer, { email: byId('invite-email'), role: byId('invite-role') });
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
      const answer = await sendSignedIn('POST', '/auth/organizations/invitations/accept', { token: pendingToken });
      if (!answer) return;
      if (!answer.ok) {
        showRefusal(answer);
        return;
      }
      pendingToken = null;
      invitation.hidden = true;
      showNotice('You joined ' + answer.body.name + ' as ' + answer.body.role + '.');
      await loadOrganizations();
      section.querySelector('h2').focus();
    }),
  );

  const projectsButton = byId('show-org-projects');
  projectsButton.addEventListener('click', () =>
    exclusively(projectsButton, async () => {
      clearMessages();
      const answer = await sendSignedIn('GET', '/org-projects');
      if (!answer) return;
      if (!answer.ok) {
        projects.textContent = '';
        showRefusal(answer);
        return;
      }
      projects.textContent = 'Projects of organization ' + answer.body.organizationId + '.';
    }),
  );
}
`;
