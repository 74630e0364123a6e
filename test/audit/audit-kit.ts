import { expect } from '@jest/globals';
import type request from 'supertest';
import type { AuthEventName, AuthEventPayloads, AuthOptions } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import { listenOnLoopback } from '../support/listen.js';
import type { SoftwareAuthenticator } from '../support/software-authenticator.js';
import { createTestApp, TEST_SECRET, TestClock, type TestApp } from '../support/test-app.js';
import { Browser, PASSKEY_BASE_URL } from '../passkeys/passkey-kit.js';

export const PASSWORD = 'correct horse battery';
export const NEW_PASSWORD = 'a brand new passphrase';
export const DAY_MS = 86_400_000;
export type CredentialKind = 'session' | 'jwt';

/** The suite's policy: administrators who may also read the activity log, and members. */
export const POLICY = { roles: { admin: ['users:*', 'audit:read'], auditor: ['audit:read'], member: [] } };

/** Two user agents, as browsers send them. */
export const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0';
export const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 19_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.1 Mobile/15E148 Safari/604.1';

/** One entry of `auth_audit_events` as the suite reads it, details parsed. */
export interface AuditRow {
  id: string;
  user_id: string | null;
  actor_id: string | null;
  action: string;
  ip: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
}

export interface AuditApp extends TestApp {
  url: string;
  credential: CredentialKind;
  /** A browser on a device: its client address (behind the trusted proxy) and user agent on every request. */
  device(ip?: string, userAgent?: string, authenticator?: SoftwareAuthenticator): Device;
  /** Every entry of the activity log, oldest first. */
  auditRows(): Promise<AuditRow[]>;
  /** The payloads of `name` delivered so far, once the work after the responses has run. */
  delivered<N extends AuthEventName>(name: N): Promise<AuthEventPayloads[N][]>;
}

/**
 * A password application with everything the activity log records (email verification, two-step login,
 * passkeys, roles and administration) and the `audit` section, behind one trusted proxy (the client
 * address is the `X-Forwarded-For` a device sends), listening on loopback.
 */
export async function createAuditApp(engine: Engine, credential: CredentialKind, options: Partial<AuthOptions> = {}, clock = new TestClock()): Promise<AuditApp> {
  const t = await createTestApp({
    engine,
    clock,
    options: {
      credential,
      baseUrl: PASSKEY_BASE_URL,
      secret: TEST_SECRET,
      password: { bcryptCost: 10 },
      emailVerification: {},
      mfa: { issuer: 'svc audit tests' },
      passkeys: {},
      authorization: POLICY,
      admin: {},
      audit: {},
      trustProxy: 1,
      ...options,
    } as Partial<AuthOptions>,
  });
  const url = await listenOnLoopback(t.server);
  const app: AuditApp = {
    ...t,
    url,
    credential,
    device: (ip = '203.0.113.10', userAgent = FIREFOX, authenticator) => new Device(app, ip, userAgent, authenticator),
    async auditRows() {
      const rows: (Omit<AuditRow, 'details'> & { details: string })[] = await t.dataSource.query('SELECT * FROM auth_audit_events ORDER BY at, id');
      return rows.map((row) => ({ ...row, details: JSON.parse(row.details) as Record<string, unknown> }));
    },
    async delivered(name) {
      await t.afterResponses();
      return t.events.payloadsOf(name) as never;
    },
  };
  return app;
}

/** A browser of the application on one device: the passkey suite's browser, sending its address and user agent. */
export class Device extends Browser {
  constructor(
    private readonly target: { url: string; credential: CredentialKind },
    readonly ip: string,
    readonly userAgent: string,
    authenticator?: SoftwareAuthenticator,
  ) {
    super(target, authenticator);
  }

  override send(method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<request.Response> {
    return super.send(method, path, body, { 'X-Forwarded-For': this.ip, 'User-Agent': this.userAgent, ...headers });
  }

  /** Another browser on the same device holding the same credential (to act on a copy of it). */
  copy(): Device {
    const copy = new Device(this.target, this.ip, this.userAgent, this.authenticator);
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    copy.bearer = this.bearer;
    return copy;
  }

  login(email: string, password = PASSWORD): Promise<request.Response> {
    return this.send('post', '/auth/login', { email, password });
  }

  async signedUp(email: string): Promise<string> {
    await this.signup(email);
    const me = await this.me();
    expect(me.status).toBe(200);
    return me.body.id as string;
  }

  /** GET /auth/me/activity. */
  activity(query = ''): Promise<request.Response> {
    return this.send('get', `/auth/me/activity${query}`);
  }
}
