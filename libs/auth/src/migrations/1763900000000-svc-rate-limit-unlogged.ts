import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * On PostgreSQL, `rate_limit_counters` becomes UNLOGGED: a counter's write no longer goes through
 * the write-ahead log, so a check no longer waits for a durable commit (the database limiter's
 * main cost). What it gives up (docs/guides/rate-limiting.md): after a crash of the database server the
 * table is empty, so the counts restart and limits hold again within one window; standbys do not
 * receive it, so after a failover the counts restart the same way. Nothing else is stored there.
 * SQLite has no such table kind: there, nothing changes.
 */
export class SvcRateLimitUnlogged1763900000000 implements MigrationInterface {
  name = 'SvcRateLimitUnlogged1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') await queryRunner.query('ALTER TABLE rate_limit_counters SET UNLOGGED');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') await queryRunner.query('ALTER TABLE rate_limit_counters SET LOGGED');
  }
}
