import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { DataSource, type Table } from 'typeorm';
import { authEntities, authMigrations } from '#svc/auth';
import { createAuthTestApp } from '#svc/auth/testing';
import { availableEngines, type Engine, freshDatabase } from '../../support/engines.js';
import { ApplicationUser, ApplicationUserColumns1795824000000 } from '../application-columns.js';

const ENGINES = await availableEngines();
const USER = '00000000-0000-4000-8000-000000000001';
const SESSION = '00000000-0000-4000-8000-0000000000aa';
const timestampOf = (migration: Function) => Number(/(\d{13})$/.exec(migration.name)![1]);

/** `users` as TypeORM reads it from the database: each column's definition, the indexes and unique constraints. */
async function usersTable(dataSource: DataSource): Promise<{ columns: unknown[]; indices: unknown[]; uniques: unknown[] }> {
  const queryRunner = dataSource.createQueryRunner();
  try {
    const table = (await queryRunner.getTable('users')) as Table;
    return {
      columns: table.columns.map(({ name, type, length, isNullable, default: value }) => ({ name, type, length, isNullable, default: value })),
      indices: table.indices.map(({ name, columnNames, isUnique }) => ({ name, columnNames, isUnique })),
      uniques: table.uniques.map(({ name, columnNames }) => ({ name, columnNames })),
    };
  } finally {
    await queryRunner.release();
  }
}

/** `users` after svc's migrations alone. */
async function svcUsersTable(engine: Engine): Promise<Awaited<ReturnType<typeof usersTable>>> {
  const database = await freshDatabase(engine);
  const dataSource = new DataSource({ ...database.options, entities: authEntities(), migrations: authMigrations } as never);
  try {
    await dataSource.initialize();
    await dataSource.runMigrations();
    return await usersTable(dataSource);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await database.drop();
  }
}

describe.each(ENGINES)('an application migration that adds user columns after every svc migration, on %s (docs/guides/application.md)', (engine) => {
  it("keeps svc's columns and indexes of users, in one migration run; signup stores svc's columns and the application's", async () => {
    expect(Math.max(...authMigrations.map(timestampOf))).toBeLessThan(timestampOf(ApplicationUserColumns1795824000000));
    const svcOnly = await svcUsersTable(engine);
    const database = await freshDatabase(engine);
    const t = await createAuthTestApp({
      user: ApplicationUser,
      migrations: [ApplicationUserColumns1795824000000],
      database: database.options as never,
      // A schema test: it mails nothing, and says so, as the kit's mail-observer check asks.
      options: { password: { sendsResetMail: false } },
    }).catch(async (error: unknown) => {
      await database.drop();
      throw error;
    });
    try {
      const users = await usersTable(t.dataSource);
      expect(users.columns.slice(0, svcOnly.columns.length)).toEqual(svcOnly.columns);
      expect(users.columns.slice(svcOnly.columns.length).map((column) => (column as { name: string }).name)).toEqual(['display_name', 'plan']);
      expect(users.indices).toEqual(svcOnly.indices);
      expect(users.uniques).toEqual(svcOnly.uniques);

      const signup = await request(t.server).post('/auth/signup').send({ email: 'ada@example.com', password: 'correct horse battery', displayName: 'Ada' });
      expect([signup.status, signup.body]).toEqual([201, { id: expect.any(String), email: 'ada@example.com', displayName: 'Ada', plan: 'free' }]);
      const [row] = await t.dataSource.query('SELECT email_skeleton, email_verified_at, mfa_totp_enabled, display_name, plan FROM users');
      expect({ ...row, mfa_totp_enabled: Boolean(row.mfa_totp_enabled) }).toEqual({ email_skeleton: expect.any(String), email_verified_at: null, mfa_totp_enabled: false, display_name: 'Ada', plan: 'free' });
    } finally {
      await t.close();
      await database.drop();
    }
  });

  it("reverted (migration:revert), gives back svc's users table and keeps the users' sessions", async () => {
    const svcOnly = await svcUsersTable(engine);
    const database = await freshDatabase(engine);
    const dataSource = new DataSource({ ...database.options, entities: authEntities(ApplicationUser), migrations: [...authMigrations, ApplicationUserColumns1795824000000] } as never);
    try {
      await dataSource.initialize();
      await dataSource.runMigrations();
      const p = (i: number) => (engine === 'postgres' ? `$${i}` : '?');
      await dataSource.query(`INSERT INTO users (id, email, email_skeleton, password_hash) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})`, [USER, 'ada@example.com', 'ada@example.com', '$2b$10$abcdefghijklmnopqrstuu']);
      await dataSource.query(`INSERT INTO sessions (id, token_hash, user_id, expires_at, last_seen_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)})`, [SESSION, 'a'.repeat(64), USER, '2030-01-01 00:00:00', '2026-01-01 00:00:00']);

      await dataSource.undoLastMigration();
      expect(await usersTable(dataSource)).toEqual(svcOnly);
      expect(await dataSource.query('SELECT id, user_id FROM sessions')).toEqual([{ id: SESSION, user_id: USER }]);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await database.drop();
    }
  });
});
