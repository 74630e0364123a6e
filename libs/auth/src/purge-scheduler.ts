import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { createRequire } from 'node:module';
import { AUTH_CONFIG, SVC_LOGGER } from './config/auth.constants.js';
import { AuthService } from './auth.service.js';
import type { AuthConfig } from './config/auth-config.js';
import { AuthConfigError } from './config/auth-config.error.js';
import { describeError } from './errors/describe-error.js';

/** The job's name in @nestjs/schedule's SchedulerRegistry. */
export const PURGE_JOB = 'svc-purge';

interface CronJobLike {
  start(): void;
}
type CronJobClass = { from(params: { cronTime: string; onTick: () => Promise<void>; start: boolean; waitForCompletion: boolean }): CronJobLike };

/**
 * `purge: { cron }`: registers `AuthService.purgeExpired()` as a cron job of @nestjs/schedule,
 * which stays an optional dependency: it is looked up only when the option is set, and a missing
 * package or `ScheduleModule.forRoot()` stops the application with a message saying what to add.
 */
@Injectable()
export class PurgeScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(SVC_LOGGER);

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly auth: AuthService,
    private readonly moduleRef: ModuleRef,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const cron = this.config.purge?.cron;
    if (!cron) return;
    const { registry, CronJob } = await this.scheduler();
    let job: CronJobLike;
    try {
      job = CronJob.from({ cronTime: cron, onTick: () => this.purge(), start: false, waitForCompletion: true });
    } catch (error) {
      throw new AuthConfigError('purge.cron', `is not a cron expression: ${describeError(error)}`);
    }
    registry.addCronJob(PURGE_JOB, job as never);
    job.start();
  }

  private async purge(): Promise<void> {
    try {
      const purged = await this.auth.purgeExpired();
      this.logger.log(`purged ${purged.sessions} sessions, ${purged.refreshTokens} refresh tokens, ${purged.resetTokens} reset tokens${purged.auditEvents === undefined ? '' : `, ${purged.auditEvents} activity entries`}`);
    } catch (error) {
      this.logger.error(`purge failed: ${describeError(error)}`);
    }
  }

  private async scheduler(): Promise<{ registry: { addCronJob(name: string, job: never): void }; CronJob: CronJobClass }> {
    const missing = 'purge.cron needs @nestjs/schedule: install it and add ScheduleModule.forRoot() to your application module';
    let schedule: typeof import('@nestjs/schedule');
    try {
      schedule = await import('@nestjs/schedule');
    } catch {
      throw new Error(`svc: ${missing}`);
    }
    let registry: InstanceType<typeof schedule.SchedulerRegistry>;
    try {
      registry = this.moduleRef.get(schedule.SchedulerRegistry, { strict: false });
    } catch {
      throw new Error(`svc: ${missing}`);
    }
    // The cron package @nestjs/schedule itself runs on, resolved from there (not hoisted everywhere).
    const scheduleEntry = createRequire(import.meta.url).resolve('@nestjs/schedule');
    const { CronJob } = createRequire(scheduleEntry)('cron') as { CronJob: CronJobClass };
    return { registry, CronJob };
  }
}
