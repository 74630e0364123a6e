import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { inspect } from 'node:util';
import {
  AuthEvent,
  type AuthHooks,
  type ForgotPasswordPayload,
  HookAbort,
  OnAuthEvent,
  type PasswordResetRequestedEvent,
  type ResetPasswordPayload,
  SecretString,
} from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { PASSWORD_STRATEGIES, RecoveryClient, recoveryOptions } from '../recovery-client.js';

const OLD = 'correct horse';
const NEW = 'battery staple';

/** What the hooks saw, and how the test wants them to behave. */
const seen: {
  forgot: ForgotPasswordPayload[];
  reset: ResetPasswordPayload[];
  mode: 'pass' | 'abort' | 'crash' | 'redirect';
} = { forgot: [], reset: [], mode: 'pass' };

@Injectable()
class RecoveryHooks implements AuthHooks {
  beforeForgotPassword(payload: ForgotPasswordPayload): ForgotPasswordPayload {
    seen.forgot.push(payload);
    if (seen.mode === 'abort') throw new HookAbort('Resets are paused');
    if (seen.mode === 'redirect') return { email: 'alias-target@x.io' };
    return payload;
  }

  async beforeResetPassword(payload: ResetPasswordPayload): Promise<ResetPasswordPayload> {
    seen.reset.push(payload);
    if (seen.mode === 'abort') throw new HookAbort('Resets are paused');
    if (seen.mode === 'crash') throw new Error(`cannot check ${payload.password.reveal()} for ${payload.token.reveal()}`);
    return payload;
  }
}

/** A mailer that fails and quotes the token in its error, as real ones do. */
@Injectable()
class FailingMailer {
  @OnAuthEvent(AuthEvent.PasswordResetRequested)
  send(event: PasswordResetRequestedEvent): void {
    throw new Error(`SMTP refused mail to ${event.user.email} with link /reset-password?token=${event.token}`);
  }
}

describe.each(BEHAVIOUR_ENGINES.flatMap((engine) => PASSWORD_STRATEGIES.map((strategy) => [engine, strategy] as const)))(
  'password recovery hooks, events and logs on %s, %s strategy',
  (engine, strategy) => {
    let t: TestApp;
    let client: RecoveryClient;
    const logger = new CapturingLogger();
    /** Everything that must never reach a log line or a payload other than its own event. */
    const secrets = new Set<string>([OLD, NEW]);
    let serial = 0;

    beforeAll(async () => {
      t = await createTestApp({ engine, strategy, options: recoveryOptions(strategy), hooks: RecoveryHooks, providers: [FailingMailer] });
      t.app.useLogger(logger);
      client = new RecoveryClient(t, strategy);
    });
    afterAll(() => t?.close());
    beforeEach(() => {
      seen.mode = 'pass';
      seen.forgot.length = 0;
      seen.reset.length = 0;
    });

    async function user(): Promise<{ email: string; id: string }> {
      const email = `hooked${++serial}@x.io`;
      const created = await client.createUser(email, OLD);
      return { email, id: created.id };
    }

    async function mailedToken(email: string): Promise<string> {
      const token = await client.requestToken(email);
      secrets.add(token);
      return token;
    }

    it('beforeForgotPassword gets { email } (normalised) and may refuse: 403 HOOK_ABORTED, no token', async () => {
      const { email } = await user();
      await mailedToken(email);
      expect(seen.forgot.at(-1)).toEqual({ email });

      seen.mode = 'abort';
      const before = client.tokensMailedTo(email).length;
      const refused = await client.forgot(` ${email.toUpperCase()}`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Resets are paused', code: 'HOOK_ABORTED' });
      expect(seen.forgot.at(-1)).toEqual({ email });
      seen.mode = 'pass';
      await mailedToken(email); // the next event is this request's: the refused one issued nothing
      expect(client.tokensMailedTo(email)).toHaveLength(before + 1);
    });

    it('the payload beforeForgotPassword returns is the one used', async () => {
      await client.signup('alias-target@x.io', OLD);
      seen.mode = 'redirect';
      const before = client.tokensMailedTo('alias-target@x.io').length;
      expect((await client.forgot('someone-else@x.io')).status).toBe(202);
      await t.events.waitFor(AuthEvent.PasswordResetRequested, client.resetEvents().length + 1);
      expect(client.tokensMailedTo('alias-target@x.io')).toHaveLength(before + 1);
      for (const token of client.tokensMailedTo('alias-target@x.io')) secrets.add(token);
    });

    it('beforeResetPassword gets the token and the password as SecretStrings', async () => {
      const token = await mailedToken((await user()).email);
      expect((await client.reset(token, NEW)).status).toBe(204);
      const [payload] = seen.reset;
      expect(payload.token).toBeInstanceOf(SecretString);
      expect(payload.password).toBeInstanceOf(SecretString);
      expect(payload.token.reveal()).toBe(token);
      expect(payload.password.reveal()).toBe(NEW);
      expect(JSON.stringify(payload)).not.toContain(NEW);
      expect(JSON.stringify(payload)).not.toContain(token);
      expect(inspect(payload)).not.toContain(NEW);
      expect(inspect(payload)).not.toContain(token);
    });

    it('a refusing beforeResetPassword leaves the token unused; a crashing one fails closed without leaking', async () => {
      const { email } = await user();
      const token = await mailedToken(email);
      seen.mode = 'abort';
      expect((await client.reset(token, NEW)).status).toBe(403);
      seen.mode = 'crash';
      const crashed = await client.reset(token, NEW);
      expect(crashed.status).toBe(500);
      expect(crashed.body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error', code: 'HOOK_FAILED' });
      expect(logger.lines).toContainEqual(
        { level: 'error', text: expect.stringMatching(/^before-hook beforeResetPassword failed: Error: cannot check \*{10}.*\nsvc$/s) },
      );
      expect((await client.login(email, OLD)).status).toBe(200);
      seen.mode = 'pass';
      expect((await client.reset(token, NEW)).status).toBe(204);
    });

    it('svc.password.changed carries { userId, at } after the response', async () => {
      const { email, id } = await user();
      const token = await mailedToken(email);
      await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
      const before = t.events.payloadsOf(AuthEvent.PasswordChanged).length;
      expect((await client.reset(token, NEW)).status).toBe(204);
      const changed = (await t.events.waitFor(AuthEvent.PasswordChanged, before + 1)).at(-1);
      expect(changed).toEqual({ userId: id, at: t.clock.now() });
    });

    it('a crashing mail observer is logged to svc without the token, and the token still works', async () => {
      const { email } = await user();
      const token = await mailedToken(email);
      await t.afterResponses();
      expect(logger.lines).toContainEqual(
        { level: 'error', text: expect.stringMatching(/^observer of svc.password.reset_requested failed: Error: SMTP refused mail.*\nsvc$/s) },
      );
      expect((await client.reset(token, NEW)).status).toBe(204);
    });

    it('no password, hash or reset token in any log line, and none in any payload but the reset token in its own event', async () => {
      const hashes = await t.dataSource.query('SELECT password_hash FROM users');
      for (const row of hashes as { password_hash: string }[]) secrets.add(row.password_hash);
      const tokenHashes = await t.dataSource.query('SELECT token_hash FROM password_reset_tokens');
      for (const row of tokenHashes as { token_hash: string }[]) secrets.add(row.token_hash);
      expect(secrets.size).toBeGreaterThan(6);
      expect(logger.lines.length).toBeGreaterThan(0);

      const logged = JSON.stringify(logger.lines);
      for (const secret of secrets) expect(logged).not.toContain(secret);
      for (const event of t.events.received) {
        // Only reset_requested has one, with the link that carries it.
        const { token: _itsOwnToken, link: _itsOwnLink, ...others } = event.payload as { token?: string; link?: string };
        const shown = JSON.stringify(others) + inspect(others, { depth: 5 });
        for (const secret of secrets) expect(shown).not.toContain(secret);
        expect(shown).not.toMatch(/\$2[aby]\$/);
      }
      expect(t.events.received.map((event) => event.name)).toEqual(expect.arrayContaining([AuthEvent.PasswordResetRequested, AuthEvent.PasswordChanged]));
    });
  },
);
