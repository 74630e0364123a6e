import { type MigrationInterface, type QueryRunner, Table, TableForeignKey } from 'typeorm';
import { columnTypes } from './column-types.js';

/**
 * Roles (docs/guides/roles-and-permissions.md): `user_roles`, one row per role a user holds, primary
 * key `(user_id, role)` (which also serves the lookup of a user's roles), with when and by whom it
 * was granted; the rows go with their user. `down` drops the table alone: no other table changes.
 */
export class SvcUserRoles1764000000700 implements MigrationInterface {
  name = 'SvcUserRoles1764000000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'user_roles',
        columns: [t.uuid('user_id', { isPrimary: true }), t.text('role', 64, { isPrimary: true }), t.createdAt('granted_at'), t.uuid('granted_by', { isNullable: true })],
        foreignKeys: [new TableForeignKey({ name: 'fk_user_roles_user', columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('user_roles', true);
  }
}
