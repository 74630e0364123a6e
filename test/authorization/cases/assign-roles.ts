// Behaviour, not storage: SQLite alone (the grant is the user_roles insert every signup already makes).
import request from 'supertest';
import { AuthEvent, type AuthorizationOptions } from '#svc/auth';
import { cookiesOf, createTestApp, type TestApp } from '../../support/test-app.js';
import { PASSWORD, POLICY } from '../authorization-kit.js';

/** docs/guides/roles-and-permissions.md, roles by rule: `admin` for an operator's address, once it is proven. */
const OPERATORS = new Set(['ops@x.io']);
const ASSIGNING: AuthorizationOptions = {
  ...POLICY,
  assignRoles: ({ email, emailVerified }) => (emailVerified && OPERATORS.has(email) ? ['admin'] : []),
};

const me = (t: TestApp, cookie: string) => request(t.server).get('/auth/me').set('Cookie', cookie);
async function signup(t: TestApp, email: string): Promise<{ body: Record<string, unknown>; cookie: string }> {
  const response = await request(t.server).post('/auth/signup').send({ email, password: PASSWORD });
  expect(response.status).toBe(201);
  return { body: response.body, cookie: `svc_session=${cookiesOf(response).svc_session.value}` };
}

describe('authorization.assignRoles with email verification: granted at the first proof of the mailbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: 'sqlite', strategy: 'session', options: { authorization: ASSIGNING, emailVerification: {} } });
  });
  afterAll(() => t?.close());

  it('an operator address signs up as a member, and holds admin from the request after its verification', async () => {
    const operator = await signup(t, 'OPS@x.io');
    expect(operator.body.roles).toEqual(['member']);
    await t.afterResponses();
    const [mail] = t.events.received.filter((event) => event.name === AuthEvent.EmailVerificationRequested).map((event) => event.payload as { user: { email: string }; token: string });
    expect(mail.user.email).toBe('ops@x.io');
    expect((await request(t.server).post('/auth/verify-email').set('Cookie', operator.cookie).send({ token: mail.token })).status).toBe(204);
    expect((await me(t, operator.cookie)).body).toMatchObject({ roles: ['admin', 'member'], permissions: ['audit:read', 'users:*'] });
    const rows: { role: string; granted_by: string | null }[] = await t.dataSource.query(`SELECT role, granted_by FROM user_roles WHERE user_id = '${String(operator.body.id)}' ORDER BY role`);
    expect(rows).toEqual([{ role: 'admin', granted_by: null }, { role: 'member', granted_by: null }]);
  });

  it('another address is given nothing by the rule, verified or not', async () => {
    const other = await signup(t, 'someone@x.io');
    await t.afterResponses();
    const mail = t.events.received.filter((event) => event.name === AuthEvent.EmailVerificationRequested).map((event) => event.payload as { user: { email: string }; token: string }).find((one) => one.user.email === 'someone@x.io')!;
    expect((await request(t.server).post('/auth/verify-email').set('Cookie', other.cookie).send({ token: mail.token })).status).toBe(204);
    expect((await me(t, other.cookie)).body).toMatchObject({ roles: ['member'], permissions: [] });
  });
});

describe('authorization.assignRoles without email verification', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The demo's rule when verification is off: the address is as proven as it will be at signup.
    const atSignup: AuthorizationOptions = { ...POLICY, assignRoles: ({ email }) => (OPERATORS.has(email) ? ['admin'] : []) };
    t = await createTestApp({ engine: 'sqlite', strategy: 'session', options: { authorization: atSignup } });
  });
  afterAll(() => t?.close());

  it("grants the rule's roles in the signup's own transaction: the signup's body already carries them", async () => {
    const operator = await signup(t, 'ops@x.io');
    expect(operator.body.roles).toEqual(['admin', 'member']);
    expect((await me(t, operator.cookie)).body).toMatchObject({ roles: ['admin', 'member'], permissions: ['audit:read', 'users:*'] });
  });
});

describe('authorization.assignRoles naming a role the policy does not define', () => {
  let t: TestApp;
  beforeAll(async () => {
    const typo: AuthorizationOptions = { ...POLICY, assignRoles: () => ['amdin'] };
    t = await createTestApp({ engine: 'sqlite', strategy: 'session', options: { authorization: typo } });
  });
  afterAll(() => t?.close());

  it('fails the signup (500) and grants nothing: no user is left behind', async () => {
    const response = await request(t.server).post('/auth/signup').send({ email: 'typo@x.io', password: PASSWORD });
    expect(response.status).toBe(500);
    expect(await t.dataSource.query(`SELECT id FROM users WHERE email = 'typo@x.io'`)).toEqual([]);
  });
});
