import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { AuthConfigError, AuthModule, defaultMailTemplates, escapeHtml, type MailMessage } from '#svc/auth';
import { bootAuthModule } from '../../support/auth-module-app.js';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BASE_URL } from '../../support/test-app.js';
import { type AccountApp, createAccountApp, engineCredentialPairs, NEW_PASSWORD, PASSWORD } from '../account-security-mail-kit.js';
import { recordingTransport, type SentMail } from '../mail-kit.js';

// docs/guides/account-security.md, "svc's own mail": with the mail section svc sends every message
// kind through the transport (nodemailer's JSON transport here), text and HTML, with its ready
// link; a template per kind replaces the default; every value is HTML-escaped; a failing
// transport is logged without the link and fails no request. Behaviour whatever the engine: SQLite.
const FROM = 'svc tests <no-reply@app.test>';
const PAIRS = engineCredentialPairs(BEHAVIOUR_ENGINES);

/** The one message sent to `address` whose subject matches. */
function only(mails: SentMail[], subject: RegExp): SentMail {
  const found = mails.filter((mail) => subject.test(mail.subject));
  expect(found.map((mail) => mail.subject)).toHaveLength(1);
  return found[0];
}

/** The link is in the text as is, and in the HTML as an escaped href. */
function expectLink(mail: SentMail, link: string): void {
  expect(mail.text).toContain(link);
  expect(mail.html).toContain(`href="${escapeHtml(link)}"`);
}

describe.each(PAIRS)('svc sends every message kind itself on %s with the %s credential', (engine, credential) => {
  let app: AccountApp;
  const mail = recordingTransport();
  beforeAll(async () => {
    app = await createAccountApp(engine, credential, { emailVerification: {}, mail: { transport: mail.transport, from: FROM } });
  });
  afterAll(() => app?.close());

  it('verification, reset, change of email (confirmation, notice, taken address) and security notices, each with its link, text and HTML', async () => {
    const email = 'mailed@x.io';
    const { browser, userId } = await app.signedUp(email);
    await app.afterResponses();
    const verification = only(mail.sentTo(email), /Confirm your email/);
    const verificationEvent = app.events.payloadsOf('svc.email.verification_requested').find((event) => event.user.id === userId)!;
    expect(verificationEvent.link).toMatch(/^https:\/\/app\.test\/verify-email\?token=/);
    expectLink(verification, verificationEvent.link);
    expect(verification.from).toEqual({ address: 'no-reply@app.test', name: 'svc tests' });
    expect(verification.html).toMatch(/^<!doctype html>/);

    expect((await browser.send('post', '/auth/verify-email', { token: verificationEvent.token })).status).toBe(204);
    await app.afterResponses();
    expect(only(mail.sentTo(email), /secured/).text).toContain('https://app.test/');

    expect((await browser.send('post', '/auth/forgot-password', { email })).status).toBe(202);
    await app.afterResponses();
    const resetEvent = app.events.payloadsOf('svc.password.reset_requested').find((event) => event.user.id === userId)!;
    expect(resetEvent.link).toBe(`https://app.test/reset-password?token=${resetEvent.token}`);
    expectLink(only(mail.sentTo(email), /Reset your password/), resetEvent.link);

    const other = await app.signedUp('taken@x.io');
    expect((await other.browser.send('post', '/auth/change-email', { newEmail: email, password: PASSWORD })).status).toBe(202);
    await app.afterResponses();
    const taken = only(mail.sentTo(email), /tried to use your email/);
    expect(taken.text).not.toMatch(/token=/);

    expect((await browser.send('post', '/auth/change-email', { newEmail: 'moved@x.io', password: PASSWORD })).status).toBe(202);
    await app.afterResponses();
    const requested = app.events.payloadsOf('svc.email.change_requested').find((event) => event.user.id === userId)!;
    expectLink(only(mail.sentTo('moved@x.io'), /Confirm your new email/), requested.link);
    const notice = app.events.payloadsOf('svc.email.change_notice').find((event) => event.user.id === userId && event.reason === 'change_requested')!;
    expect(notice.link).toMatch(/^https:\/\/app\.test\/cancel-email-change\?token=|^https:\/\/app\.test\/.+\?token=/);
    expectLink(only(mail.sentTo(email), /about to change/), notice.link!);

    expect((await browser.send('post', '/auth/change-password', { current_password: PASSWORD, new_password: NEW_PASSWORD })).status).toBe(204);
    await app.afterResponses();
    const changed = only(mail.sentTo(email), /password was changed/);
    expectLink(changed, 'https://app.test/');
    // A notice carries no token: neither the reset's nor any other.
    for (const sent of mail.sentTo(email).filter((message) => /secured|password was changed/.test(message.subject))) expect(`${sent.text}${sent.html}`).not.toMatch(/token=/);
    expect(mail.sent.every((sent) => sent.from.address === 'no-reply@app.test' && sent.text.length > 0 && sent.html.length > 0)).toBe(true);
  });
});

describe.each(BEHAVIOUR_ENGINES)('the mail section on %s: templates, escaping, failures', (engine) => {
  let app: AccountApp;
  const mail = recordingTransport();
  const logger = new CapturingLogger();
  const seen: MailMessage[] = [];
  beforeAll(async () => {
    app = await createAccountApp(
      engine,
      'session',
      {
        mail: {
          transport: mail.transport,
          from: FROM,
          links: { account: 'https://app.test/account/security' },
          templates: {
            security_notice: (message) => {
              seen.push(message);
              return { subject: `[notice] ${message.notice}`, text: `custom ${message.notice} ${message.accountLink}`, html: `<p>custom ${escapeHtml(message.notice!)}</p>` };
            },
          },
        },
      },
      logger,
    );
  });
  beforeEach(() => {
    mail.failWith(null);
    logger.clear();
  });
  afterAll(() => app?.close());

  it('uses the application’s template for its kind, given the whole message; the other kinds keep the default', async () => {
    const email = 'templated@x.io';
    const { browser, userId } = await app.signedUp(email);
    expect((await browser.send('post', '/auth/change-password', { current_password: PASSWORD, new_password: NEW_PASSWORD })).status).toBe(204);
    await app.afterResponses();
    expect(mail.sentTo(email).map((sent) => [sent.subject, sent.text])).toEqual([['[notice] password_changed', 'custom password_changed https://app.test/account/security']]);
    expect(seen.at(-1)).toEqual({
      kind: 'security_notice',
      to: email,
      user: expect.objectContaining({ id: userId, email }),
      accountLink: 'https://app.test/account/security',
      notice: 'password_changed',
      ip: expect.any(String),
      userAgent: expect.any(String),
    });
    expect((await browser.send('post', '/auth/forgot-password', { email })).status).toBe(202);
    await app.afterResponses();
    expect(mail.sentTo(email).at(-1)!.subject).toBe('Reset your password');
    // The default templates are public, for a template that wraps one.
    expect(defaultMailTemplates.security_notice(seen.at(-1)!).subject).toBe('Your password was changed');
  });

  it('HTML-escapes a hostile display name and user agent in the default HTML; the text keeps them as typed', async () => {
    const hostile = '<script>alert(1)</script> & "Mallory"';
    const agent = '<img src=x onerror=alert(2)>';
    const browser = app.browser();
    expect((await browser.send('post', '/auth/signup', { email: 'hostile@x.io', password: PASSWORD, displayName: hostile })).status).toBe(201);
    expect((await browser.send('post', '/auth/forgot-password', { email: 'hostile@x.io' }, { 'User-Agent': agent })).status).toBe(202);
    await app.afterResponses();
    const reset = mail.sentTo('hostile@x.io').at(-1)!;
    expect(reset.html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Mallory&quot;,');
    expect(reset.html).not.toContain('<script>');
    expect(reset.text).toContain(`Hello ${hostile},`);
    const notice = defaultMailTemplates.security_notice({
      kind: 'security_notice',
      to: 'hostile@x.io',
      user: { id: 'u', email: 'hostile@x.io', displayName: hostile },
      accountLink: 'https://app.test/?a=1&b="2"',
      notice: 'new_device',
      ip: '203.0.113.7',
      userAgent: agent,
    });
    expect(notice.html).not.toMatch(/<script>|<img/);
    expect(notice.html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(notice.html).toContain('href="https://app.test/?a=1&amp;b=&quot;2&quot;"');
  });

  it('a failing transport fails no request and is logged with the user id, never the link, its token or the address', async () => {
    const email = 'unlucky@x.io';
    const { browser, userId } = await app.signedUp(email);
    mail.failWith(new Error('connect ECONNREFUSED 127.0.0.1:25'));
    expect((await browser.send('post', '/auth/forgot-password', { email })).status).toBe(202);
    await app.afterResponses();
    const lines = logger.matching('error', 'mail password_reset');
    expect(lines).toHaveLength(1);
    expect(lines[0].text).toContain(`mail password_reset to user ${userId} not sent: Error: connect ECONNREFUSED`);
    // A server error that quotes the message it refused is masked too.
    mail.failWith((message) => new Error(`rejected: ${message.text}`));
    expect((await browser.send('post', '/auth/forgot-password', { email })).status).toBe(202);
    await app.afterResponses();
    const all = logger.lines.map((line) => line.text).join('\n');
    for (const payload of app.events.payloadsOf('svc.password.reset_requested')) expect(all).not.toContain(payload.token);
    expect(all).not.toContain(email);
    expect(logger.matching('error', 'mail password_reset')).toHaveLength(2);
    // The link still works: the request and its token stand.
    mail.failWith(null);
    const latest = app.events.payloadsOf('svc.password.reset_requested').filter((payload) => payload.user.id === userId).at(-1)!;
    expect((await browser.send('post', '/auth/reset-password', { token: latest.token, password: NEW_PASSWORD })).status).toBe(204);
  });
});

describe('the mail section at startup', () => {
  const boot = (options: object) => bootAuthModule(AuthModule.forRoot({ baseUrl: BASE_URL, password: {}, ...options }));

  it('meets the check of mail observers: svc is the observer of every message', async () => {
    await expect(boot({ emailVerification: {} })).rejects.toThrow(AuthConfigError);
    await expect(boot({ emailVerification: {}, mail: { transport: recordingTransport().transport, from: FROM } })).resolves.toBeUndefined();
  });

  it('stops on a missing transport or sender, and on a template of an unknown kind, naming the field', async () => {
    await expect(boot({ mail: { from: FROM } })).rejects.toThrow(/mail\.transport/);
    await expect(boot({ mail: { transport: {}, from: FROM } })).rejects.toThrow(/mail\.transport/);
    await expect(boot({ mail: { transport: recordingTransport().transport } })).rejects.toThrow(/mail\.from/);
    await expect(boot({ mail: { transport: recordingTransport().transport, from: 'a@x.io\r\nBcc: all@x.io' } })).rejects.toThrow(/mail\.from/);
    await expect(boot({ mail: { transport: recordingTransport().transport, from: FROM, templates: { invitation: () => ({}) } } })).rejects.toThrow(/mail\.templates\.invitation/);
    await expect(boot({ mail: { transport: recordingTransport().transport, from: FROM, templates: { password_reset: 'Reset!' } } })).rejects.toThrow(/mail\.templates\.password_reset/);
    await expect(boot({ mail: { transport: recordingTransport().transport, from: FROM, links: { account: '/relative' } } })).rejects.toThrow(/mail\.links\.account/);
  });
});
