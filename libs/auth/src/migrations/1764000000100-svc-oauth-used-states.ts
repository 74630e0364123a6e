import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { columnTypes } from './column-types.js';

/**
 * `oauth_used_states`: the states OAuth callbacks have used, one row each until the state expires,
 * so that a replayed callback is refused by every instance sharing the database (docs/decisions/0018-oauth-logins.md). The primary key is the state's SHA-256: inserting it twice is the replay.
 */
export class SvcOAuthUsedStates1764000000100 implements MigrationInterface {
  name = 'SvcOAuthUsedStates1764000000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'oauth_used_states',
        columns: [t.text('state_hash', 64, { isPrimary: true }), t.timestamp('expires_at')],
        indices: [new TableIndex({ name: 'ix_oauth_used_states_expires_at', columnNames: ['expires_at'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('oauth_used_states', true);
  }
}
