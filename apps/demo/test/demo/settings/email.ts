import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reserveLoopbackPort } from '../../../../../test/support/listen.js';
import { cookieJarClient as client } from '../cookie-jar-client.js';
import { type DemoProcess, startSuiteDemo } from '../demo-process.js';
import { startForSuite } from '../suite-demos.js';

const PASSWORD = 'correct horse';

/**
 * AUTH_EMAIL_VERIFICATION=required, driven from outside as a person would: the links of the MAIL
 * lines, the pages they open, the refusal before the email is verified (docs/demo.md).
 */
const started = startForSuite({
  required: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-demo-email-'));
    const port = await reserveLoopbackPort();
    return startSuiteDemo(
      { PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'demo.sqlite')}`, AUTH_BASE_URL: `http://127.0.0.1:${port}`, AUTH_EMAIL_VERIFICATION: 'required', RATE_LIMIT_BACKEND: 'off' },
      async () => rmSync(dir, { recursive: true, force: true }),
    );
  },
});

describe('the demo with AUTH_EMAIL_VERIFICATION=required', () => {
  let demo: DemoProcess;
  beforeAll(() => {
    demo = started.required!.demo;
  });

  /** The MAIL line of `kind` to `to`, as printed. */
  const mailTo = (to: string, kind: string) => demo.waitForLine('MAIL ', (line) => line.to === to && line.kind === kind);
  const tokenOf = (link: unknown) => new URL(String(link)).searchParams.get('token')!;

  it('signup → MAIL email_verification → its page → Verify email → login; then a change of email through MAIL email_change and its notice', async () => {
    const ada = client(demo.baseUrl);
    const signup = await ada('POST', '/auth/signup', { email: 'ada@example.io', password: PASSWORD });
    expect(signup.status).toBe(201);
    expect(signup.body).toEqual({ id: expect.any(String), email: 'ada@example.io', displayName: null, plan: 'free', emailVerified: false, mfa: { totp: false }, roles: ['member'] });
    expect(signup.headers.getSetCookie()).toEqual([]);
    const verification = await mailTo('ada@example.io', 'email_verification');
    expect(verification).toEqual({ to: 'ada@example.io', kind: 'email_verification', link: expect.stringMatching(new RegExp(`^${demo.baseUrl}/verify-email\\?token=[A-Za-z0-9_-]{43}$`)) });

    const refused = await ada('POST', '/auth/login', { email: 'ada@example.io', password: PASSWORD });
    expect([refused.status, refused.body.code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);

    // The link opens a page; only its button spends the token.
    const page = await fetch(String(verification.link));
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('<title>Verify your email · svc demo</title>');
    expect(html).toContain('>Verify email</button>');
    expect((await ada('POST', '/auth/verify-email', { token: tokenOf(verification.link) })).status).toBe(204);
    expect((await ada('POST', '/auth/login', { email: 'ada@example.io', password: PASSWORD })).status).toBe(200);

    expect((await ada('POST', '/auth/change-email', { newEmail: 'ada.lovelace@example.io', password: PASSWORD })).status).toBe(202);
    const confirmation = await mailTo('ada.lovelace@example.io', 'email_change');
    expect(confirmation).toEqual({ to: 'ada.lovelace@example.io', kind: 'email_change', link: expect.stringMatching(new RegExp(`^${demo.baseUrl}/confirm-email\\?token=[A-Za-z0-9_-]{43}$`)) });
    expect(await mailTo('ada@example.io', 'email_change_notice')).toEqual({
      to: 'ada@example.io',
      kind: 'email_change_notice',
      reason: 'change_requested',
      link: expect.stringMatching(new RegExp(`^${demo.baseUrl}/cancel-email-change\\?token=[A-Za-z0-9_-]{43}$`)),
    });
    const confirmPage = await (await fetch(String(confirmation.link))).text();
    expect(confirmPage).toContain('>Confirm email</button>');
    // Opened anywhere: a mailed link needs no credential.
    expect((await client(demo.baseUrl)('POST', '/auth/confirm-email', { token: tokenOf(confirmation.link) })).status).toBe(204);
    expect((await ada('GET', '/auth/me')).body).toMatchObject({ email: 'ada.lovelace@example.io', emailVerified: true });
  });

  it('the notice to the old address → its page → Cancel email change: the change is void, every device signed out', async () => {
    const cy = client(demo.baseUrl);
    await cy('POST', '/auth/signup', { email: 'cy@example.io', password: PASSWORD });
    await cy('POST', '/auth/verify-email', { token: tokenOf((await mailTo('cy@example.io', 'email_verification')).link) });
    expect((await cy('POST', '/auth/login', { email: 'cy@example.io', password: PASSWORD })).status).toBe(200);
    // Someone holding Cy's session asks to move the email to their own address.
    expect((await cy('POST', '/auth/change-email', { newEmail: 'mallory@example.io', password: PASSWORD })).status).toBe(202);
    const confirmation = await mailTo('mallory@example.io', 'email_change');
    const notice = await mailTo('cy@example.io', 'email_change_notice');

    const page = await fetch(String(notice.link));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('<title>Cancel the change of your email · svc demo</title>');
    expect(html).toContain('>Cancel email change</button>');
    expect((await client(demo.baseUrl)('POST', '/auth/cancel-email-change', { token: tokenOf(notice.link) })).status).toBe(204);

    expect((await cy('GET', '/auth/me')).status).toBe(401);
    const late = await client(demo.baseUrl)('POST', '/auth/confirm-email', { token: tokenOf(confirmation.link) });
    expect([late.status, late.body.code]).toEqual([400, 'VERIFICATION_TOKEN_INVALID']);
    expect((await cy('POST', '/auth/login', { email: 'cy@example.io', password: PASSWORD })).status).toBe(200);
  });

  it('a change to a taken address answers alike and prints only a notice to it; no EVENT line shows a token or a link', async () => {
    const bob = client(demo.baseUrl);
    await bob('POST', '/auth/signup', { email: 'bob@example.io', password: PASSWORD });
    await bob('POST', '/auth/verify-email', { token: tokenOf((await mailTo('bob@example.io', 'email_verification')).link) });
    await client(demo.baseUrl)('POST', '/auth/signup', { email: 'taken@example.io', password: PASSWORD });
    expect((await bob('POST', '/auth/login', { email: 'bob@example.io', password: PASSWORD })).status).toBe(200);
    const answer = await bob('POST', '/auth/change-email', { newEmail: 'taken@example.io', password: PASSWORD });
    expect([answer.status, answer.body]).toEqual([202, null]);
    expect(await mailTo('taken@example.io', 'email_change_notice')).toEqual({ to: 'taken@example.io', kind: 'email_change_notice', reason: 'address_taken' });
    await demo.waitForLine('EVENT ', (line) => line.name === 'svc.email.change_notice' && (line.payload as { to: string }).to === 'taken@example.io');
    expect(demo.lines.filter((line) => line.startsWith('MAIL ') && line.includes('"to":"taken@example.io"') && line.includes('"email_change"'))).toEqual([]);

    const events = demo.lines.filter((line) => line.startsWith('EVENT ')).map((line) => JSON.parse(line.slice('EVENT '.length)) as { name: string; payload: Record<string, unknown> });
    for (const name of ['svc.email.verification_requested', 'svc.email.change_requested']) {
      const shown = events.filter((event) => event.name === name);
      expect(shown.length).toBeGreaterThan(0);
      for (const event of shown) expect(Object.keys(event.payload).filter((key) => key === 'token' || key === 'link')).toEqual([]);
    }
    const tokens = demo.lines.filter((line) => line.startsWith('MAIL ')).flatMap((line) => {
      const link = (JSON.parse(line.slice('MAIL '.length)) as { link?: string }).link;
      return link ? [tokenOf(link)] : [];
    });
    for (const token of tokens) expect(demo.lines.filter((line) => !line.startsWith('MAIL ') && line.includes(token))).toEqual([]);
  });
});
