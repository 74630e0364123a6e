import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** The demo's own columns on `users`, after the library's initial schema. */
export class DemoUserColumns1763700000001 implements MigrationInterface {
  name = 'DemoUserColumns1763700000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('users', [
      new TableColumn({ name: 'display_name', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({ name: 'plan', type: 'varchar', length: '32', default: "'free'" }),
      new TableColumn({ name: 'internal_note', type: 'varchar', length: '1024', isNullable: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // SQLite: in place (docs/decisions/0002-schema.md); dropColumn would copy users, and in a revert that deletes every session and token with the old copy.
    for (const column of ['internal_note', 'plan', 'display_name']) {
      if (queryRunner.connection.options.type === 'postgres') await queryRunner.dropColumn('users', column);
      else await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "${column}"`);
    }
  }
}
