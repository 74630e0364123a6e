import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Clock } from '../config/clock.js';
import { AuditEvent } from '../entities/audit-event.entity.js';
import { AfterResponse } from '../events/after-response.js';
import { storableAddressOf } from '../http/client-address.js';
import { userAgentOf } from '../http/user-agent.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import type { AuditAction } from './audit-actions.js';
import { type AuditDetails, auditDetailsText } from './audit-details.js';

const DAY_MS = 86_400_000;

/** One entry of the activity log, as a feature hands it to `AuditLog.record`. */
export interface AuditEntry {
  action: AuditAction;
  /** The account the change is about (kept as a plain value: the entry outlives a deleted account). */
  userId: string | null;
  /** Who made the change when it was not the user (an administrator); null or absent for the user. */
  actorId?: string | null;
  /** The request that made the change: the client's network and user agent are read from it. */
  request?: Request;
  /** Plain, non-secret values only (a method, a provider, a role): checked by `auditDetailsText`. */
  details?: AuditDetails;
}

/** Where an entry came from, as stored: the network (IPv4 /24, IPv6 /48) and the user agent. */
export interface AuditOrigin {
  ip: string | null;
  userAgent: string | null;
}

/**
 * The activity log's one writer (docs/decisions/0029-activity-log.md). `record` writes through the
 * manager of the change it records, so the entry commits or rolls back with it (a change without its
 * entry, or an entry without its change, cannot exist). Without the `audit` section every method
 * returns at once: nothing is written, no statement runs.
 */
@Injectable()
export class AuditLog {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly afterResponse: AfterResponse,
  ) {}

  get enabled(): boolean {
    return this.config.audit !== undefined;
  }

  /** Writes `entry` in the transaction of `manager`, beside the change it records. */
  async record(manager: EntityManager, entry: AuditEntry): Promise<void> {
    if (!this.enabled) return;
    const details = auditDetailsText(entry.details);
    const origin = entry.request ? this.originOf(entry.request) : { ip: null, userAgent: null };
    await manager.insert(AuditEvent, {
      id: randomUUID(),
      at: this.clock.now(),
      userId: entry.userId,
      actorId: entry.actorId ?? null,
      action: entry.action,
      ip: origin.ip,
      userAgent: origin.userAgent,
      details,
    });
  }

  /**
   * For what changes nothing to join (a refused login): written in a short transaction of its own
   * once the response has gone, so that its duration never shows in the answer's timing (OWASP
   * Authentication Cheat Sheet: a known and an unknown account answer alike). Its failure is logged.
   */
  recordAfterResponse(request: Request, entry: Omit<AuditEntry, 'request'>): void {
    if (!this.enabled) return;
    this.afterResponse.run(request, `activity log entry ${entry.action}`, () => this.unitOfWork.transaction((manager) => this.record(manager, { ...entry, request })));
  }

  /**
   * Deletes the entries older than `audit.retentionDays` (`AuthService.purgeExpired()`); the caller
   * commits. Undefined without the section (no statement runs).
   */
  async purgeExpired(manager: EntityManager): Promise<number | undefined> {
    const audit = this.config.audit;
    if (!audit) return undefined;
    const before = new Date(this.clock.now().getTime() - audit.retentionDays * DAY_MS);
    const result = await manager.createQueryBuilder().delete().from(AuditEvent).where('at < :before', { before }).execute();
    return result.affected ?? 0;
  }

  /** The client's network and user agent, as an entry stores them (the network only: GDPR Art. 5(1)(c)). */
  originOf(request: Request): AuditOrigin {
    return { ip: storableAddressOf(request, this.config), userAgent: userAgentOf(request) };
  }
}
