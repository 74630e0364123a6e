import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { MailKind, MailOptions, MailTemplate } from './mail-options.js';
import { absoluteUrl, nonEmptyString } from './option-rules.js';

/** Every kind a template may be given for (docs/reference/options.md). */
export const MAIL_KIND_NAMES: readonly MailKind[] = ['password_reset', 'email_verification', 'email_change', 'email_change_notice', 'security_notice', 'organization_invitation'];

/**
 * The `mail` section (docs/guides/account-security.md): absent, svc sends nothing and the
 * application's observers mail what the events carry. Present, it needs a transport with
 * `sendMail` and a sender; a template for an unknown kind stops startup, naming it.
 */
export function validateMail(section: MailOptions | undefined, baseUrl: string): AuthConfig['mail'] {
  if (section === undefined) return undefined;
  if (section === null || typeof section !== 'object' || Array.isArray(section)) throw new AuthConfigError('mail', 'must be an object', section);
  const transport = section.transport as Partial<MailOptions['transport']> | null | undefined;
  if (!transport || typeof transport.sendMail !== 'function') throw new AuthConfigError('mail.transport', 'is required: a nodemailer Transporter (nodemailer.createTransport(...)) or an object with sendMail(message)');
  const from = nonEmptyString('mail.from', section.from, 320);
  // RFC 5322 §2.2: a header field is one line; a line break in the sender would start another header.
  if (/[\r\n]/.test(from)) throw new AuthConfigError('mail.from', 'must be one line (no line break)');
  const templates: Partial<Record<MailKind, MailTemplate>> = {};
  const given = section.templates ?? {};
  if (given === null || typeof given !== 'object' || Array.isArray(given)) throw new AuthConfigError('mail.templates', 'must be an object of templates by kind');
  for (const [kind, template] of Object.entries(given)) {
    if (!MAIL_KIND_NAMES.includes(kind as MailKind)) throw new AuthConfigError(`mail.templates.${kind}`, `is not a kind of message: one of ${MAIL_KIND_NAMES.join(', ')}`);
    if (typeof template !== 'function') throw new AuthConfigError(`mail.templates.${kind}`, 'must be a function (message) => { subject, text, html }');
    templates[kind as MailKind] = template;
  }
  const account = section.links?.account === undefined ? `${baseUrl}/` : absoluteUrl('mail.links.account', section.links.account).href;
  return { transport: section.transport, from, templates, links: { account } };
}
