import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Clock } from '../config/clock.js';
import { AuditEvent } from '../entities/audit-event.entity.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { clientAddressOf } from '../http/client-address.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import type { AuditDetails } from './audit-details.js';
import { AuditLog, type AuditOrigin } from './audit-log.js';

/** How far back a device counts as known. */
const KNOWN_DEVICE_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * The `login` entry of every login, whatever the method, and the `new_device` notice
 * (docs/guides/account-security.md): a login whose user agent and network (IPv4 /24, IPv6 /48, as
 * stored) are absent from the user's `login` entries of the last 90 days, while the user has signed
 * in before, is announced as `svc.security.notice` once the login has committed. A user's first
 * recorded login is not a new device: there is nothing yet to compare it with.
 */
@Injectable()
export class LoginActivity {
  constructor(
    private readonly audit: AuditLog,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {}

  /** In the login's transaction, before its credential is issued (so a failed issue leaves no entry). */
  async record(manager: EntityManager, user: SvcUser, request: Request, details: AuditDetails): Promise<void> {
    if (!this.audit.enabled) return;
    const origin = this.audit.originOf(request);
    // Read before this login's own entry is written: "seen before" means before this login.
    const newDevice = await this.isNewDevice(manager, user.id, origin);
    await this.audit.record(manager, { action: 'login', userId: user.id, request, details });
    if (!newDevice) return;
    const notice = { user: this.serializer.serialize(user), notice: 'new_device' as const, ip: clientAddressOf(request, this.config), userAgent: origin.userAgent };
    await this.unitOfWork.afterCommit(manager, async () => this.events.publishAfterResponse(request, AuthEvent.SecurityNotice, notice));
  }

  private async isNewDevice(manager: EntityManager, userId: string, origin: AuditOrigin): Promise<boolean> {
    const since = new Date(this.clock.now().getTime() - KNOWN_DEVICE_DAYS * DAY_MS);
    const seen = this.logins(manager, userId).andWhere('e.at > :since', { since });
    seen.andWhere(origin.ip === null ? 'e.ip IS NULL' : 'e.ip = :ip', { ip: origin.ip });
    seen.andWhere(origin.userAgent === null ? 'e.user_agent IS NULL' : 'e.user_agent = :userAgent', { userAgent: origin.userAgent });
    if (await seen.getRawOne()) return false;
    return Boolean(await this.logins(manager, userId).getRawOne());
  }

  private logins(manager: EntityManager, userId: string) {
    return manager.createQueryBuilder(AuditEvent, 'e').select('1', 'one').where('e.user_id = :userId AND e.action = :action', { userId, action: 'login' }).limit(1);
  }
}
