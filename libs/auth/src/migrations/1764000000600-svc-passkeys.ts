import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { columnTypes } from './column-types.js';

/**
 * Passkeys (docs/guides/passkeys.md):
 * - `passkeys`, one row per WebAuthn credential a user registered: its id (unique), COSE public key,
 *   signature counter, transports, backup flags, a name, and when it was added and last used; the
 *   rows go with their user;
 * - `passkey_used_challenges`, the challenges registrations and logins have used, one row each until
 *   the challenge expires, so that a replayed response is refused by every instance.
 * `down` drops both (and the passkeys with them).
 */
export class SvcPasskeys1764000000600 implements MigrationInterface {
  name = 'SvcPasskeys1764000000600';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'passkeys',
        columns: [
          t.uuid('id', { isPrimary: true }),
          t.uuid('user_id'),
          t.text('credential_id', 1400),
          t.text('public_key', 4096),
          { name: 'counter', type: 'bigint', default: 0 },
          t.text('transports', 256, { default: "''" }),
          t.text('device_type', 16),
          { name: 'backed_up', type: 'boolean', default: false },
          t.text('name', 64),
          t.createdAt(),
          t.timestamp('last_used_at', { isNullable: true }),
        ],
        indices: [
          new TableIndex({ name: 'uq_passkeys_credential_id', columnNames: ['credential_id'], isUnique: true }),
          new TableIndex({ name: 'ix_passkeys_user_id', columnNames: ['user_id', 'created_at'] }),
        ],
        foreignKeys: [new TableForeignKey({ name: 'fk_passkeys_user', columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'passkey_used_challenges',
        columns: [t.text('challenge_hash', 64, { isPrimary: true }), t.timestamp('expires_at')],
        indices: [new TableIndex({ name: 'ix_passkey_used_challenges_expires_at', columnNames: ['expires_at'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('passkey_used_challenges', true);
    await queryRunner.dropTable('passkeys', true);
  }
}
