import { type MigrationInterface, type QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';
import { columnTypes } from './column-types.js';
import { alterSqliteTableInPlace, isSqlite } from './sqlite-in-place.js';

/** The credentials that record their active organization. */
const CREDENTIAL_TABLES = ['sessions', 'refresh_families'] as const;

/**
 * Organizations (docs/guides/organizations.md):
 * - `organizations` (`slug` unique);
 * - `organization_members`, primary key `(organization_id, user_id)`, with `ix_organization_members_user`
 *   for a user's memberships; the rows go with their organization and with their user;
 * - `organization_invitations`, the token stored as its SHA-256 (`token_hash` unique), going with their organization;
 * - `sessions.active_organization_id` and `refresh_families.active_organization_id`: the organization
 *   the credential acts in, null for none. No foreign key: the credential's lookup joins the membership,
 *   so an organization deleted, or a membership ended, is no active organization at the next request.
 */
export class SvcOrganizations1764000001200 implements MigrationInterface {
  name = 'SvcOrganizations1764000001200';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'organizations',
        columns: [t.uuid('id', { isPrimary: true }), t.text('name', 100), t.text('slug', 64), t.createdAt()],
        uniques: [{ name: 'uq_organizations_slug', columnNames: ['slug'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'organization_members',
        columns: [t.uuid('organization_id', { isPrimary: true }), t.uuid('user_id', { isPrimary: true }), t.text('role', 64), t.createdAt('joined_at')],
        foreignKeys: [
          new TableForeignKey({ name: 'fk_organization_members_organization', columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
          new TableForeignKey({ name: 'fk_organization_members_user', columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
        ],
        indices: [new TableIndex({ name: 'ix_organization_members_user', columnNames: ['user_id'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'organization_invitations',
        columns: [
          t.uuid('id', { isPrimary: true }),
          t.uuid('organization_id'),
          t.text('email', 320),
          t.text('role', 64),
          t.text('token_hash', 64),
          t.uuid('invited_by', { isNullable: true }),
          t.timestamp('expires_at'),
          t.timestamp('accepted_at', { isNullable: true }),
          t.createdAt(),
        ],
        uniques: [{ name: 'uq_organization_invitations_token_hash', columnNames: ['token_hash'] }],
        foreignKeys: [
          new TableForeignKey({ name: 'fk_organization_invitations_organization', columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
        ],
        indices: [new TableIndex({ name: 'ix_organization_invitations_organization', columnNames: ['organization_id'] })],
      }),
    );
    for (const table of CREDENTIAL_TABLES) {
      const column = new TableColumn(t.uuid('active_organization_id', { isNullable: true }));
      if (isSqlite(queryRunner)) await addSqliteColumnKeepingCache(queryRunner, table, column);
      else await queryRunner.addColumn(table, column);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of CREDENTIAL_TABLES) {
      if (isSqlite(queryRunner)) await alterSqliteTableInPlace(queryRunner, table, `ALTER TABLE "${table}" DROP COLUMN "active_organization_id"`);
      else await queryRunner.dropColumn(table, 'active_organization_id');
    }
    await queryRunner.dropTable('organization_invitations', true);
    await queryRunner.dropTable('organization_members', true);
    await queryRunner.dropTable('organizations', true);
  }
}

/**
 * SQLite: ADD COLUMN in place (as `alterSqliteTableInPlace`), then the column added to the runner's
 * view of the table, if it holds one, instead of reading the table again: a read replaces every view
 * the runner holds, and a later migration of the same run that alters `users` through TypeORM would
 * then copy it from a fresh read, its indexes in another order than svc's own migrations leave them.
 */
async function addSqliteColumnKeepingCache(queryRunner: QueryRunner, table: string, column: TableColumn): Promise<void> {
  await queryRunner.query(`ALTER TABLE "${table}" ADD COLUMN "${column.name}" varchar(36)`);
  const loaded = (queryRunner as unknown as { loadedTables?: Table[] }).loadedTables?.find((cached) => cached.name === table);
  if (loaded && !loaded.findColumnByName(column.name)) loaded.addColumn(column);
}
