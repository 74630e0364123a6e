import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One counter per key and window for the database rate-limit backend (`rate_limit_counters`). */
@Entity('rate_limit_counters')
export class RateLimitCounter {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  /** Start of the current window, in epoch milliseconds. */
  @Column({ name: 'window_start', type: 'bigint' })
  windowStart: string;

  /** End of the current window (exclusive), in epoch milliseconds: the row may go once it has passed. */
  @Column({ name: 'window_end', type: 'bigint', default: 0 })
  windowEnd: string;

  @Column({ type: 'integer' })
  count: number;
}
