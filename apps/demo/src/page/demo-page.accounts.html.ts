import { escapeHtml } from '#svc/auth';
import type { PageProvider } from './demo-page.providers.js';

/**
 * "Ways to sign in", inside the signed-in card: the password, and one row per configured provider
 * whose state and button (`Link <name>` or `Unlink <name>`) the script fills in from GET /auth/accounts.
 */
export function accountsSection(providers: PageProvider[], password: boolean): string {
  if (providers.length === 0) return '';
  const rows = providers.map(
    ({ method, name }) => `        <li class="way" data-method="${method}" data-provider="${escapeHtml(name)}">
          <span class="way-name">${escapeHtml(name)}</span>
          <span class="way-state">Checking…</span>
          <button type="button" hidden></button>
        </li>`,
  );
  const passwordRow = password
    ? `        <li class="way" id="way-password"><span class="way-name">Password</span> <span class="way-state">Checking…</span></li>\n`
    : '';
  return `    <section class="ways" aria-labelledby="ways-title">
      <h2 id="ways-title">Ways to sign in</h2>
      <ul id="ways" class="ways-list">
${passwordRow}${rows.join('\n')}
      </ul>
    </section>
`;
}
