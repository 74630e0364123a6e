import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AUTH_CLOCK, SVC_LOGGER } from '../config/auth.constants.js';
import { type Clock, systemClock } from '../config/clock.js';
import { AuthError } from '../errors/auth.error.js';
import { describeError } from '../errors/describe-error.js';
import { ThrottledReport } from '../errors/throttled-report.js';

/**
 * The library's only door to the database. `transaction` commits everything a request writes as
 * one unit (docs/decisions/0003-transactions.md); `autocommit` runs statements outside a transaction.
 *
 * SQLite (better-sqlite3) has one connection shared by the whole process: two interleaved
 * transactions would nest into each other. So on SQLite every unit of work waits its turn on a
 * queue owned by this instance (no module-level state).
 */
@Injectable()
export class UnitOfWork {
  private readonly logger = new Logger(SVC_LOGGER);
  private readonly unavailableReport: ThrottledReport;
  private readonly serialize: boolean;
  private queue: Promise<unknown> = Promise.resolve();
  /** What runs once the transaction of a manager has committed (dropped with a rollback). */
  private readonly committed = new WeakMap<EntityManager, (() => Promise<void>)[]>();

  constructor(
    @InjectDataSource() readonly dataSource: DataSource,
    @Optional() @Inject(AUTH_CLOCK) clock: Clock = systemClock,
  ) {
    this.serialize = dataSource.options.type === 'better-sqlite3';
    this.unavailableReport = new ThrottledReport((line) => this.logger.error(line), () => clock.now().getTime());
  }

  /** Runs `work` in one transaction: all its writes are committed together, or none is. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.guard(async () => {
      const actions: (() => Promise<void>)[] = [];
      const result = await this.dataSource.transaction((manager) => {
        this.committed.set(manager, actions);
        return work(manager);
      });
      for (const action of actions) await action();
      return result;
    });
  }

  /**
   * Runs `action` once what `manager` wrote is committed, before the unit of work resolves: at the
   * end of its `transaction`, or at once for an `autocommit` manager (its statements are committed
   * as they run). `action` must not throw: the writes are committed by then.
   */
  async afterCommit(manager: EntityManager, action: () => Promise<void>): Promise<void> {
    const actions = this.committed.get(manager);
    if (actions) actions.push(action);
    else await action();
  }

  /**
   * Runs `work` outside any transaction (on SQLite, still in turn): each statement is its own
   * transaction, committed at once. For reads, and for the one write that must not wait for the
   * request's transaction (the rate limiter's counter: docs/guides/rate-limiting.md).
   */
  autocommit<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.guard(() => work(this.dataSource.manager));
  }

  private guard<T>(run: () => Promise<T>): Promise<T> {
    const result = this.serialize ? this.enqueue(run) : run();
    return result.catch((error: unknown) => {
      throw this.unavailableIfConnectionLost(error);
    });
  }

  private enqueue<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** A lost database is a 503 with nothing half-written, not a 500 (docs/decisions/0003-transactions.md). */
  private unavailableIfConnectionLost(error: unknown): unknown {
    if (error instanceof AuthError || !isConnectionError(error)) return error;
    this.unavailableReport.occurred(`database unavailable: ${describeError(error)}`);
    return new AuthError('SERVICE_UNAVAILABLE', { cause: error });
  }
}

const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006']);

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown; driverError?: { code?: unknown } })?.code ?? (error as { driverError?: { code?: unknown } })?.driverError?.code;
  if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|Client has encountered a connection error|database connection is not open|The database connection is not open/i.test(message);
}
