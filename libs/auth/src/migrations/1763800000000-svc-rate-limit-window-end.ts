import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';

/**
 * `rate_limit_counters.window_end`: when each counter's own window ends (epoch milliseconds), so
 * that deleting ended windows never touches a live counter of a longer window. Rows from before it
 * get 0 and are deleted by the next housekeeping (a counter, nothing more, is lost).
 */
export class SvcRateLimitWindowEnd1763800000000 implements MigrationInterface {
  name = 'SvcRateLimitWindowEnd1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('rate_limit_counters', new TableColumn({ name: 'window_end', type: 'bigint', isNullable: false, default: 0 }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('rate_limit_counters', 'window_end');
  }
}
