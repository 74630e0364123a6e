/** The pages a mailed email link opens (docs/guides/email.md). */
export type EmailLinkView = 'verify-email' | 'confirm-email' | 'cancel-email-change';

const TEXTS: Record<EmailLinkView, { title: string; lead: string; button: string }> = {
  'verify-email': { title: 'Verify your email', lead: 'Press the button to confirm that this address is yours.', button: 'Verify email' },
  'confirm-email': {
    title: 'Confirm your new email',
    lead: "Press the button to make this address your account's email. Every other device signed in to the account is signed out.",
    button: 'Confirm email',
  },
  'cancel-email-change': {
    title: 'Cancel the change of your email',
    lead: 'Press the button to keep this address as your account\'s email. Every device signed in to the account is signed out: sign in again, and change your password if you did not ask for the change.',
    button: 'Cancel email change',
  },
};

export function emailLinkTitle(view: EmailLinkView): string {
  return TEXTS[view].title;
}

/** The landing of a link: one button that sends the link's token (a GET never spends it: mail scanners follow links). */
export function emailLinkSection(view: EmailLinkView): string {
  const { title, lead, button } = TEXTS[view];
  return `  <section id="email-link" class="card" data-mail-link="${view}" hidden>
    <h1 id="email-link-title" tabindex="-1">${title}</h1>
    <p>${lead}</p>
    <button id="email-link-action" type="button" class="primary">${button}</button>
    <p><a href="/">Back to the start page</a></p>
  </section>
`;
}
