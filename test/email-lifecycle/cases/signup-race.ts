import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { emailSkeleton } from '#svc/auth/testing';
import { availableEngines } from '../../support/engines.js';
import { eventually } from '../../support/eventually.js';
import { createEmailApp, type EmailApp, engineCredentialPairs, PASSWORD } from '../email-kit.js';

const PAIRS = engineCredentialPairs(await availableEngines());
const RACES = 6;

/**
 * A confirmation and a signup of the same address at the same moment: the unique indexes on the
 * email and on its look-alike skeleton leave the address with one owner, whichever wins.
 */
describe.each(PAIRS)('confirm-email racing a signup of the address on %s, %s credential', (engine, credential) => {
  let t: EmailApp;
  let serial = 0;
  beforeAll(async () => {
    t = await createEmailApp({ engine, credential });
  });
  afterAll(() => t?.close());

  it.each([
    ['the same address', (address: string) => address],
    ['a look-alike of it', (address: string) => address.replace('bob', 'b0b')],
  ])('ends with one owner, whoever wins: signup of %s', async (_case, signupAddressOf) => {
    const races = await Promise.all(
      Array.from({ length: RACES }, async () => {
        const n = ++serial;
        const changing = await t.account(`changing${n}@x.io`);
        const address = `bob${n}@x.io`;
        expect((await t.changeEmail(changing.held, { newEmail: address, password: PASSWORD })).status).toBe(202);
        return { changing, address, signupAddress: signupAddressOf(address), token: await t.changeTokenOf(address) };
      }),
    );
    const outcomes = await Promise.all(races.map(({ signupAddress, token }) => Promise.all([t.signup(signupAddress), t.confirm(token)])));

    for (const [i, [signup, confirm]] of outcomes.entries()) {
      const { changing, address, signupAddress } = races[i];
      // Exactly one of the two got the address; the other was told it is taken.
      expect([[201, 409], [409, 204]]).toContainEqual([signup.status, confirm.status]);
      if (signup.status === 409) expect(signup.body.code).toBe('EMAIL_ALREADY_REGISTERED');
      if (confirm.status === 409) expect(confirm.body.code).toBe('EMAIL_ALREADY_REGISTERED');
      const owners: { id: string; email: string }[] = await t.dataSource.query(
        `SELECT id, email FROM users WHERE email IN ('${address}', '${signupAddress}') OR email_skeleton = '${emailSkeleton(address)}'`,
      );
      expect(owners).toHaveLength(1);
      const changed = (await t.userRow(changing.user.id)).email;
      if (confirm.status === 204) expect(owners[0]).toEqual({ id: changing.user.id, email: address });
      else expect(changed).toBe(changing.user.email);
    }
  });

  // PostgreSQL runs the two transactions side by side: the signup's row, not yet committed, is
  // invisible to the confirmation's check, so the unique index alone decides (SQLite runs them one
  // after the other, and the check decides).
  if (engine !== 'postgres') return;
  it.each([
    ['of the address commits', 409],
    ['of a look-alike of it commits', 409],
    ['of the address rolls back', 204],
  ])('on PostgreSQL, a confirmation meeting a signup whose row is written but not committed waits for it; the signup %s: %i', async (signupOf, status) => {
    const n = ++serial;
    const changing = await t.account(`waiting${n}@x.io`);
    const address = `bob-inflight${n}@x.io`;
    // A look-alike holds another email, and the address's skeleton: its unique index decides.
    const inserted = signupOf.includes('look-alike') ? address.replace('bob', 'b0b') : address;
    await t.changeEmail(changing.held, { newEmail: address, password: PASSWORD });
    const token = await t.changeTokenOf(address);
    const signup = new pg.Client({ connectionString: (t.dataSource.options as { url: string }).url });
    await signup.connect();
    try {
      await signup.query('BEGIN');
      await signup.query(`INSERT INTO users (id, email, email_skeleton, password_hash) VALUES ($1, $2, $3, NULL)`, [randomUUID(), inserted, emailSkeleton(address)]);
      const confirming = t.confirm(token).then((response) => response);
      await eventually('the confirmation waits on the unique index', async () => {
        const [{ waiting }] = await t.dataSource.query(`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        return waiting > 0;
      });
      await signup.query(signupOf.endsWith('commits') ? 'COMMIT' : 'ROLLBACK');
      const response = await confirming;
      expect(response.status).toBe(status);
      if (status === 409) expect(response.body.code).toBe('EMAIL_ALREADY_REGISTERED');
      const owners: { id: string }[] = await t.dataSource.query(`SELECT id FROM users WHERE email_skeleton = $1`, [emailSkeleton(address)]);
      expect(owners).toHaveLength(1);
      expect(owners[0].id === changing.user.id).toBe(status === 204);
      expect((await t.userRow(changing.user.id)).email).toBe(status === 204 ? address : changing.user.email);
    } finally {
      await signup.end();
    }
  });
});
