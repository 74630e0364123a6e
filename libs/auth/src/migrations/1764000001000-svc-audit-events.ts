import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types.js';

/** The indexes of the activity log, each in the order its list reads it (newest first). */
const INDEXES = [
  // GET /me/activity and the admin list filtered by user: one user's entries, newest first.
  ['ix_auth_audit_events_user_at', '"user_id", "at" DESC, "id" DESC'],
  // The admin list unfiltered (keyset paging on (at, id)) and the retention purge (a range of `at`).
  ['ix_auth_audit_events_at', '"at" DESC, "id" DESC'],
  // The admin list filtered by action.
  ['ix_auth_audit_events_action_at', '"action", "at" DESC, "id" DESC'],
] as const;

/**
 * The activity log (docs/guides/account-security.md, docs/decisions/0029-activity-log.md):
 * `auth_audit_events`, one row per security-relevant change to an account. `user_id` and `actor_id`
 * carry no foreign key, so an entry keeps the id of an account that was deleted since. Its indexes
 * keep a user's newest entries an index range whatever the size of the table. `down` drops it.
 */
export class SvcAuditEvents1764000001000 implements MigrationInterface {
  name = 'SvcAuditEvents1764000001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'auth_audit_events',
        columns: [
          t.uuid('id', { isPrimary: true }),
          t.timestamp('at'),
          t.uuid('user_id', { isNullable: true }),
          t.uuid('actor_id', { isNullable: true }),
          t.text('action', 64),
          t.text('ip', 64, { isNullable: true }),
          t.text('user_agent', 512, { isNullable: true }),
          { name: 'details', type: 'text', default: "'{}'" },
        ],
      }),
    );
    for (const [name, columns] of INDEXES) await queryRunner.query(`CREATE INDEX "${name}" ON "auth_audit_events" (${columns})`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('auth_audit_events', true);
  }
}
