import { describe, expect, it } from '@jest/globals';
import type { MailMessage, MailUser } from '../config/mail-options.js';
import { defaultMailTemplates } from './default-templates.js';
import { escapeHtml } from './html-escape.js';
import { nameOf, renderMail } from './mail-layout.js';

const message = (user: MailUser, extra: Partial<MailMessage> = {}): MailMessage => ({ kind: 'password_reset', to: user.email, user, accountLink: 'https://app.test/', ...extra });

describe('the default mail layout', () => {
  it('escapes the five characters HTML reads as markup, and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a> é`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt; é');
  });

  it('greets the display name when the user body has a non-blank one, else the email', () => {
    expect(nameOf(message({ id: 'u', email: 'a@x.io', displayName: 'Ada' }))).toBe('Ada');
    expect(nameOf(message({ id: 'u', email: 'a@x.io', displayName: '  ' }))).toBe('a@x.io');
    expect(nameOf(message({ id: 'u', email: 'a@x.io', displayName: null }))).toBe('a@x.io');
  });

  it('says the same in text and HTML: every value escaped in the HTML, as typed in the text', () => {
    const rendered = renderMail(message({ id: 'u', email: 'a@x.io', displayName: '<b>Ada</b>' }), {
      subject: 'S & T',
      paragraphs: ['One <two>'],
      link: { label: 'Go', url: 'https://app.test/p?a=1&b=2' },
      closing: ['Bye'],
    });
    expect(rendered.text).toBe('Hello <b>Ada</b>,\n\nOne <two>\n\nGo:\nhttps://app.test/p?a=1&b=2\n\nBye\n');
    expect(rendered.html).toContain('<title>S &amp; T</title>');
    expect(rendered.html).toContain('<p>Hello &lt;b&gt;Ada&lt;/b&gt;,</p>\n<p>One &lt;two&gt;</p>\n<p><a href="https://app.test/p?a=1&amp;b=2">Go</a></p>\n<p>Bye</p>');
  });

  it('has a default template for every notice, none of which puts a user value into the subject', () => {
    const notices = ['password_changed', 'two_step_disabled', 'passkey_added', 'identity_linked', 'account_reclaimed', 'api_key_created', 'new_device', 'account_deleted'] as const;
    for (const notice of notices) {
      const rendered = defaultMailTemplates.security_notice(message({ id: 'u', email: '<x>@x.io', displayName: '<x>' }, { kind: 'security_notice', notice, ip: null, userAgent: null }));
      expect(rendered.subject.length).toBeGreaterThan(0);
      expect(rendered.subject).not.toContain('<x>');
      expect(rendered.html).not.toContain('<x>');
    }
  });
});
