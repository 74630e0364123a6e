import { type MigrationInterface, type QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { emailSkeleton } from '../users/email-skeleton.js';
import { columnTypes } from './column-types.js';
import { alterSqliteTableInPlace, isSqlite } from './sqlite-in-place.js';

/**
 * `users.email_skeleton`: the UTS #39 skeleton of each email, unique, so that an address that looks
 * like a registered one is that address for signup (docs/decisions/0006-validation.md). Existing users get
 * theirs; where two existing addresses already look alike, the oldest keeps the skeleton and the
 * others get none (NULL: they still sign in, and no new look-alike of any of them can register).
 */
export class SvcEmailSkeleton1764000000200 implements MigrationInterface {
  name = 'SvcEmailSkeleton1764000000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('users', new TableColumn(columnTypes(queryRunner).text('email_skeleton', 320, { isNullable: true })));
    const users: { id: string; email: string }[] = await queryRunner.query('SELECT id, email FROM users ORDER BY created_at, id');
    const taken = new Set<string>();
    const postgres = queryRunner.connection.options.type === 'postgres';
    for (const { id, email } of users) {
      const skeleton = emailSkeleton(email);
      if (taken.has(skeleton)) continue;
      taken.add(skeleton);
      await queryRunner.query(postgres ? 'UPDATE users SET email_skeleton = $1 WHERE id = $2' : 'UPDATE users SET email_skeleton = ? WHERE id = ?', [skeleton, id]);
    }
    await queryRunner.createIndex('users', new TableIndex({ name: 'uq_users_email_skeleton', columnNames: ['email_skeleton'], isUnique: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('users', 'uq_users_email_skeleton');
    if (isSqlite(queryRunner)) await alterSqliteTableInPlace(queryRunner, 'users', 'ALTER TABLE "users" DROP COLUMN "email_skeleton"');
    else await queryRunner.dropColumn('users', 'email_skeleton');
  }
}
