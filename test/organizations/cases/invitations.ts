import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createOrgApp, type Held, type OrgApp } from '../organizations-kit.js';

// docs/guides/organizations.md, "Invitations": single use, hashed, expiring on the injected clock,
// accepted only by a signed-in user whose verified email is the invited one; rate limited.
// Behaviour, and none of it about the credential: SQLite, the session credential.
const cases = BEHAVIOUR_ENGINES.map((engine) => [engine, 'session'] as const);
const HOUR_MS = 3_600_000;

describe.each(cases)('invitations on %s, %s credential', (engine, credential) => {
  let t: OrgApp;
  let owner: Held;
  let bob: Held;
  let org: string;

  beforeAll(async () => {
    t = await createOrgApp(engine, credential);
  });
  beforeEach(async () => {
    await t.reset();
    owner = await t.user('owner@example.io');
    bob = await t.user('bob@example.io');
    org = await t.organization(owner, 'acme');
  });
  afterAll(() => t.close());

  const accept = (held: Held, token: string) => t.call(held, 'post', '/organizations/invitations/accept', { token });

  it('the invited user, verified, joins with the role: 200 { id, name, slug, role }; svc.organization.member_added', async () => {
    const token = await t.invite(owner, org, 'Bob@Example.io', 'admin');
    expect((await accept(bob, token).expect(200)).body).toEqual({ id: org, name: 'Org acme', slug: 'acme', role: 'admin' });
    const [event] = await t.events.waitFor('svc.organization.member_added');
    expect(event).toEqual({ organizationId: org, userId: bob.userId, role: 'admin', invitationId: expect.any(String) });
  });

  it('the database keeps the SHA-256 of the token, never the token', async () => {
    const token = await t.invite(owner, org, bob.email, 'member');
    const rows: { token_hash: string }[] = await t.dataSource.query('SELECT token_hash FROM organization_invitations');
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].token_hash).not.toContain(token);
  });

  it('is single use: the same token again is 400 INVITATION_INVALID, for the user who took it and anyone else', async () => {
    const token = await t.invite(owner, org, bob.email, 'member');
    await accept(bob, token).expect(200);
    expect((await accept(bob, token).expect(400)).body.code).toBe('INVITATION_INVALID');
  });

  it('expires on the injected clock (72 hours by default): 400 INVITATION_INVALID after, accepted just before', async () => {
    const token = await t.invite(owner, org, bob.email, 'member');
    t.clock.advance(72 * HOUR_MS);
    // Fresh credentials, as a client three days on would sign in again (a jwt access token lives minutes).
    [owner, bob] = [await t.user(owner.email), await t.user(bob.email)];
    expect((await accept(bob, token).expect(400)).body.code).toBe('INVITATION_INVALID');
    const fresh = await t.invite(owner, org, bob.email, 'member');
    t.clock.advance(72 * HOUR_MS - 1000);
    bob = await t.user(bob.email);
    await accept(bob, fresh).expect(200);
  });

  it('an unknown or revoked token is 400 INVITATION_INVALID; a newer invitation of the address supersedes the older', async () => {
    expect((await accept(bob, 'x'.repeat(43)).expect(400)).body.code).toBe('INVITATION_INVALID');
    const older = await t.invite(owner, org, bob.email, 'member');
    const newer = await t.invite(owner, org, bob.email, 'admin');
    expect((await accept(bob, older).expect(400)).body.code).toBe('INVITATION_INVALID');
    expect((await accept(bob, newer).expect(200)).body.role).toBe('admin');
  });

  it('a user whose email is not verified gets 403 EMAIL_NOT_VERIFIED, and the invitation stays usable', async () => {
    const unverified = await t.user('carol@example.io', false);
    const token = await t.invite(owner, org, 'carol@example.io', 'member');
    expect((await accept(unverified, token).expect(403)).body.code).toBe('EMAIL_NOT_VERIFIED');
    const verified = await t.user('carol@example.io', true);
    await accept(verified, token).expect(200);
  });

  it('another verified user gets 403 INVITATION_EMAIL_MISMATCH without spending it; the invited one then joins', async () => {
    const mallory = await t.user('mallory@example.io');
    const token = await t.invite(owner, org, bob.email, 'member');
    expect((await accept(mallory, token).expect(403)).body.code).toBe('INVITATION_EMAIL_MISMATCH');
    expect((await t.call(mallory, 'get', `/organizations/${org}`).expect(404)).body.code).toBe('NOT_FOUND');
    await accept(bob, token).expect(200);
  });

  it('needs a credential (401) and a body of { token } only (400)', async () => {
    const token = await t.invite(owner, org, bob.email, 'member');
    expect((await accept(null as unknown as Held, token).expect(401)).body.code).toBe('UNAUTHENTICATED');
    expect((await t.call(bob, 'post', '/organizations/invitations/accept', { token, role: 'owner' }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    await accept(bob, token).expect(200);
  });

  it('an already-member accepting keeps the role it has, and the invitation is spent', async () => {
    await t.join(owner, org, bob, 'admin');
    const token = await t.invite(owner, org, bob.email, 'member');
    expect((await accept(bob, token).expect(200)).body.role).toBe('admin');
    expect((await accept(bob, token).expect(400)).body.code).toBe('INVITATION_INVALID');
  });

  it('is rate limited per address (5 an hour, every organization together) and per organization (50 an hour): 429 RATE_LIMITED with Retry-After', async () => {
    const other = await t.organization(owner, 'other');
    for (let i = 0; i < 5; i += 1) await t.call(owner, 'post', `/organizations/${i < 3 ? org : other}/invitations`, { email: 'target@example.io', role: 'member' }).expect(201);
    const refused = await t.call(owner, 'post', `/organizations/${org}/invitations`, { email: 'target@example.io', role: 'member' }).expect(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const third = await t.organization(owner, 'third');
    for (let i = 0; i < 50; i += 1) await t.call(owner, 'post', `/organizations/${third}/invitations`, { email: `n${i}@example.io`, role: 'member' }).expect(201);
    expect((await t.call(owner, 'post', `/organizations/${third}/invitations`, { email: 'last@example.io', role: 'member' }).expect(429)).body.code).toBe('RATE_LIMITED');
    // Another organization still invites.
    await t.call(owner, 'post', `/organizations/${other}/invitations`, { email: 'last@example.io', role: 'member' }).expect(201);
  });
});
