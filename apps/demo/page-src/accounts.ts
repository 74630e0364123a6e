/**
 * accounts: "Ways to sign in" while signed in. GET /auth/accounts fills each provider's
 * row; `Link <name>` asks POST /auth/<method>/<name>/link for the provider's address and goes
 * there, `Unlink <name>` is DELETE /auth/accounts/<method>/<name>.
 */
import type { LinkedIdentity, LoginMethods, ProviderMethod } from '#svc/auth/client';
import { attempt, auth } from './api.js';
import { exclusively } from './busy.js';
import { buttonOf, optionalById } from './dom.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';

const list = optionalById<HTMLUListElement>('ways');

export async function loadAccounts(): Promise<void> {
  if (!list) return;
  const answer = await attempt(() => auth.providers.accounts());
  if (!answer.ok) {
    for (const state of list.querySelectorAll('.way-state')) state.textContent = 'Could not be checked';
    showRefusal(answer);
    return;
  }
  render(answer.body);
}

const stateOf = (row: Element) => row.querySelector('.way-state')!;

function render(accounts: LoginMethods): void {
  if (!list) return;
  const passwordRow = optionalById('way-password');
  if (passwordRow) stateOf(passwordRow).textContent = accounts.password ? 'Set' : 'Not set';
  for (const extra of list.querySelectorAll('li[data-unconfigured]')) extra.remove();
  const shown = new Set<LinkedIdentity>();
  for (const row of list.querySelectorAll<HTMLElement>('li[data-provider]')) {
    const { method, provider = '' } = row.dataset;
    const identity = accounts.identities.find((candidate) => candidate.method === method && candidate.provider === provider);
    const button = row.querySelector('button')!;
    if (identity) shown.add(identity);
    stateOf(row).textContent = identity ? linkedText(identity) : 'Not linked';
    button.dataset.action = identity ? 'unlink' : 'link';
    button.textContent = (identity ? 'Unlink ' : 'Link ') + provider;
    button.hidden = false;
  }
  // An identity of a provider this demo no longer offers: listed, nothing to press.
  for (const identity of accounts.identities.filter((candidate) => !shown.has(candidate))) {
    const row = list.appendChild(document.createElement('li'));
    row.className = 'way';
    row.dataset.unconfigured = '';
    const name = row.appendChild(document.createElement('span'));
    name.className = 'way-name';
    name.textContent = identity.provider;
    const state = row.appendChild(document.createElement('span'));
    state.className = 'way-state';
    state.textContent = linkedText(identity) + ' (not offered by this demo\'s settings)';
  }
}

function linkedText(identity: LinkedIdentity): string {
  const since = new Date(identity.createdAt).toLocaleDateString();
  return 'Linked' + (identity.email ? ' as ' + identity.email : '') + ' since ' + since;
}

async function link(method: ProviderMethod, provider: string): Promise<void> {
  clearMessages();
  const answer = await attempt(() => auth.providers.link(method, provider));
  if (!answer.ok) {
    showRefusal(answer);
    return;
  }
  const url = typeof answer.body.url === 'string' ? new URL(answer.body.url, location.href) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    showRefusal({ ok: false, status: 200, body: { code: 'UNEXPECTED_RESPONSE', message: 'The server answered no address to go to.' }, retryAfter: null, methods: [] });
    return;
  }
  location.assign(url.href);
}

async function unlink(method: ProviderMethod, provider: string): Promise<void> {
  clearMessages();
  const answer = await attempt(() => auth.providers.unlink(method, provider));
  if (!answer.ok) {
    showRefusal(answer);
    return;
  }
  await loadAccounts();
  showNotice(provider + ' is unlinked.');
}

if (list) {
  list.addEventListener('click', (event) => {
    const button = buttonOf(event, 'button[data-action]');
    if (!button) return;
    const { method, provider = '' } = button.closest('li')!.dataset;
    const via = method as ProviderMethod;
    void exclusively(button, () => (button.dataset.action === 'link' ? link(via, provider) : unlink(via, provider)));
  });
}
