import type { MailMessage, RenderedMail } from '../config/mail-options.js';
import { escapeHtml } from './html-escape.js';

/** What a default template says: a subject, paragraphs of plain text, and at most one link with its label. */
export interface MailContent {
  subject: string;
  paragraphs: readonly string[];
  link?: { label: string; url: string };
  /** Said after the link. */
  closing?: readonly string[];
}

/** The name a message greets: the user's `displayName` column when the user body has one, else their email. */
export function nameOf(message: MailMessage): string {
  const displayName = message.user?.displayName;
  return typeof displayName === 'string' && displayName.trim().length > 0 ? displayName : (message.user?.email ?? message.to);
}

/**
 * The same content as plain text and as HTML. In the HTML every value is escaped (the name, the
 * addresses, the user agent and the link all come from users or requests).
 */
export function renderMail(message: MailMessage, content: MailContent): RenderedMail {
  const greeting = `Hello ${nameOf(message)},`;
  const closing = content.closing ?? [];
  const text = [greeting, ...content.paragraphs, ...(content.link ? [`${content.link.label}:\n${content.link.url}`] : []), ...closing].join('\n\n');
  const paragraph = (value: string) => `<p>${escapeHtml(value)}</p>`;
  const link = content.link ? `<p><a href="${escapeHtml(content.link.url)}">${escapeHtml(content.link.label)}</a></p>` : '';
  const body = [paragraph(greeting), ...content.paragraphs.map(paragraph), link, ...closing.map(paragraph)].join('\n');
  const html = `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head><body>\n${body}\n</body></html>\n`;
  return { subject: content.subject, text: `${text}\n`, html };
}
