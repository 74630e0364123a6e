import type { Provider, Type } from '@nestjs/common';
import { ActivityController } from './activity.controller.js';
import { ActivityReader } from './activity-reader.js';
import { AdminAuditController } from './admin-audit.controller.js';
import { AuditLog } from '../audit-log/audit-log.js';
import { LoginActivity } from '../audit-log/login-activity.js';

/** Every module has the writer: without the `audit` section it writes nothing (docs/decisions/0029-activity-log.md). */
export const auditLogProviders: Provider[] = [AuditLog, LoginActivity];

/** The `audit` section's routes: GET /me/activity, and GET /admin/audit when the `admin` section is on too. */
export function auditParts(withAdmin: boolean): { controllers: Type[]; providers: Provider[] } {
  return { controllers: withAdmin ? [ActivityController, AdminAuditController] : [ActivityController], providers: [ActivityReader] };
}
