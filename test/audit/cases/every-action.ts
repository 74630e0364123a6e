import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent, AuthService } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { codeOfSecretAt } from '../../two-step/codes-of-secret.js';
import { type AuditApp, createAuditApp, type CredentialKind, Device, NEW_PASSWORD, PASSWORD, SAFARI } from '../audit-kit.js';

// docs/guides/account-security.md, "Activity log": a row for each action the library performs, driven
// through the real routes, written beside its change; none holds a password, token, code or secret.
// Behaviour whatever the engine: SQLite, with each credential (the rollback of an entry with its
// change is cases/rollback.ts's, on every engine).
const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as CredentialKind[]).map((credential) => [engine, credential] as const));

/** Every action the library itself records (the features that delete accounts or make API keys add theirs). */
const LIBRARY_ACTIONS = [
  'login',
  'login_failed',
  'logout',
  'password_changed',
  'password_reset',
  'email_verified',
  'email_changed',
  'two_step_enabled',
  'two_step_disabled',
  'recovery_code_used',
  'passkey_added',
  'passkey_removed',
  'account_reclaimed',
  'role_granted',
  'role_revoked',
  'user_deactivated',
  'user_activated',
  'impersonation_started',
  'impersonation_stopped',
];

describe.each(CASES)('the activity log on %s with the %s credential', (engine, credential) => {
  let t: AuditApp;
  beforeAll(async () => {
    t = await createAuditApp(engine, credential);
  });
  afterAll(() => t?.close());

  it('records each action of a user and an administrator, once, in the transaction of its change, and no secret', async () => {
    /** Every secret the journey handles: none may appear in any entry. */
    const secrets: string[] = [PASSWORD, NEW_PASSWORD];
    const keep = (device: Device) => {
      secrets.push(...[...device.cookies.values()].filter((value) => value.length >= 16));
      if (device.bearer) secrets.push(device.bearer);
    };
    const alice = t.device();
    const aliceId = await alice.signedUp('alice@example.io');
    keep(alice);

    // The mailbox proven: the email verified, the account reclaimed.
    const [verification] = await t.delivered(AuthEvent.EmailVerificationRequested);
    secrets.push(verification.token);
    expect((await alice.send('post', '/auth/verify-email', { token: verification.token })).status).toBe(204);

    // A failed login of a known account is recorded (after its response); one of an unknown email is not.
    expect((await alice.login('alice@example.io', 'not the password at all')).status).toBe(401);
    expect((await alice.login('nobody@example.io')).status).toBe(401);
    expect((await alice.login('alice@example.io')).status).toBe(200);
    keep(alice);

    expect((await alice.send('post', '/auth/change-password', { current_password: PASSWORD, new_password: NEW_PASSWORD })).status).toBe(204);
    expect((await alice.send('post', '/auth/forgot-password', { email: 'alice@example.io' })).status).toBe(202);
    const [reset] = await t.events.waitFor(AuthEvent.PasswordResetRequested);
    secrets.push(reset.token);
    expect((await alice.send('post', '/auth/reset-password', { token: reset.token, password: PASSWORD })).status).toBe(204);
    expect((await alice.login('alice@example.io')).status).toBe(200);
    keep(alice);

    expect((await alice.send('post', '/auth/change-email', { newEmail: 'alice.new@example.io', password: PASSWORD })).status).toBe(202);
    const [change] = await t.events.waitFor(AuthEvent.EmailChangeRequested);
    secrets.push(change.token, ...(await t.delivered(AuthEvent.EmailChangeNotice)).flatMap((notice) => (notice.token ? [notice.token] : [])));
    expect((await alice.send('post', '/auth/confirm-email', { token: change.token })).status).toBe(204);

    // Two-step login: on, a login through a recovery code, off.
    const setup = await alice.send('post', '/auth/mfa/totp/setup', { password: PASSWORD });
    expect(setup.status).toBe(200);
    const secret = setup.body.secret as string;
    const enableCode = codeOfSecretAt(secret, t.clock.now());
    const enabled = await alice.send('post', '/auth/mfa/totp/enable', { code: enableCode });
    expect(enabled.status).toBe(200);
    const recoveryCodes = enabled.body.recoveryCodes as string[];
    secrets.push(secret, enableCode, ...recoveryCodes);
    expect((await alice.send('post', '/auth/logout')).status).toBe(204);
    alice.signOut();
    const challenged = await alice.login('alice.new@example.io');
    expect(challenged.body).toEqual(expect.objectContaining({ mfaRequired: true }));
    keep(alice);
    expect((await alice.send('post', '/auth/mfa/verify', { recoveryCode: recoveryCodes[0] })).status).toBe(200);
    keep(alice);
    t.clock.advance(60_000);
    const disableCode = codeOfSecretAt(secret, t.clock.now());
    secrets.push(disableCode);
    expect((await alice.send('post', '/auth/mfa/totp/disable', { password: PASSWORD, code: disableCode })).status).toBe(204);

    // A passkey: added, used to sign in, removed.
    const { answer: registered, response: attestation } = await alice.register({ name: 'Laptop' });
    expect(registered.status).toBe(201);
    alice.signOut();
    const { answer: passkeyLogin } = await alice.signIn();
    expect(passkeyLogin.status).toBe(200);
    keep(alice);
    secrets.push(JSON.stringify(attestation));
    expect((await alice.send('delete', `/auth/passkeys/${registered.body.id as string}`)).status).toBe(204);

    // An administrator's actions on alice.
    const root = t.device('198.51.100.7', SAFARI);
    const rootId = await root.signedUp('root@example.io');
    await t.app.get(AuthService).grantRole(rootId, 'admin');
    keep(root);
    expect((await root.send('post', `/auth/admin/users/${aliceId}/roles`, { role: 'auditor' })).status).toBe(204);
    expect((await root.send('delete', `/auth/admin/users/${aliceId}/roles/auditor`)).status).toBe(204);
    expect((await root.send('post', `/auth/admin/users/${aliceId}/deactivate`, { reason: 'looked odd' })).status).toBe(204);
    expect((await root.send('post', `/auth/admin/users/${aliceId}/activate`)).status).toBe(204);
    const acting = root.copy();
    expect((await acting.send('post', `/auth/admin/users/${aliceId}/impersonate`)).status).toBe(200);
    keep(acting);
    expect((await acting.send('post', '/auth/admin/impersonation/stop')).status).toBe(204);
    expect((await alice.login('alice.new@example.io')).status).toBe(200);
    keep(alice);
    expect((await alice.send('post', '/auth/logout')).status).toBe(204);

    await t.afterResponses();
    const rows = await t.auditRows();
    expect([...new Set(rows.map((row) => row.action))].sort()).toEqual([...LIBRARY_ACTIONS].sort());
    // Entries of one transaction share their instant (the suite's clock stands still): compared as a multiset.
    const actionsOf = (userId: string) => rows.filter((row) => row.user_id === userId).map((row) => row.action).sort();
    expect(actionsOf(aliceId)).toEqual(
      [
      'login',
      'email_verified',
      'account_reclaimed',
      'login_failed',
      'login',
      'password_changed',
      'password_reset',
      'login',
      'email_changed',
      'two_step_enabled',
      'logout',
      'recovery_code_used',
      'login',
      'two_step_disabled',
      'passkey_added',
      'login',
      'passkey_removed',
      'role_granted',
      'role_revoked',
      'user_deactivated',
      'user_activated',
      'impersonation_started',
      'impersonation_stopped',
      'login',
      'logout',
      ].sort(),
    );
    // The administrator's own: the signup's login and the grant from the application's code (no actor).
    expect(rows.filter((row) => row.user_id === rootId).sort((a, b) => a.action.localeCompare(b.action))).toEqual([
      expect.objectContaining({ action: 'login', actor_id: null, ip: '198.51.100.0', user_agent: SAFARI }),
      expect.objectContaining({ action: 'role_granted', actor_id: null, ip: null, user_agent: null, details: { role: 'admin' } }),
    ]);
    const byAdmin = rows.filter((row) => row.user_id === aliceId && row.actor_id !== null);
    expect(byAdmin.map((row) => row.action).sort()).toEqual(['impersonation_started', 'impersonation_stopped', 'role_granted', 'role_revoked', 'user_activated', 'user_deactivated']);
    expect(byAdmin.every((row) => row.actor_id === rootId && row.ip === '198.51.100.0' && row.user_agent === SAFARI)).toBe(true);
    // The device's network (IPv4 /24) and user agent, as the session rows keep them.
    expect(rows.filter((row) => row.user_id === aliceId && row.actor_id === null).every((row) => row.ip === '203.0.113.0' && row.user_agent === alice.userAgent)).toBe(true);
    // The details: plain values saying what changed, never how to prove it.
    const detailsOf = (action: string) => rows.filter((row) => row.action === action).map((row) => row.details);
    expect(detailsOf('login_failed')).toEqual([{ reason: 'bad_password' }]);
    expect(detailsOf('recovery_code_used')).toEqual([{ remaining: 9 }]);
    expect(detailsOf('email_changed')).toEqual([{ from: 'alice@example.io', to: 'alice.new@example.io' }]);
    expect(detailsOf('passkey_added')).toEqual([{ passkeyId: registered.body.id, name: 'Laptop' }]);
    expect(detailsOf('user_deactivated')).toEqual([{ reason: 'looked odd' }]);
    const logins = [{ method: 'passkey' }, { method: 'password' }, { method: 'password' }, { method: 'password' }, { method: 'password' }, { method: 'password', signup: true }, { method: 'password', signup: true }];
    expect(detailsOf('login').map((details) => JSON.stringify(details)).sort()).toEqual(logins.map((details) => JSON.stringify(details)).sort());

    const text = JSON.stringify(rows);
    for (const value of new Set(secrets)) expect(text.includes(value)).toBe(false);
    // The one-time values recorded here are long enough to be recognised; short codes are checked as details too.
    for (const row of rows) for (const value of Object.values(row.details)) expect(secrets).not.toContain(value);
  });
});
