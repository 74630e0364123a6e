import { SvcInitialSchema1763700000000 } from './1763700000000-svc-initial-schema.js';
import { SvcRateLimitWindowEnd1763800000000 } from './1763800000000-svc-rate-limit-window-end.js';
import { SvcRateLimitUnlogged1763900000000 } from './1763900000000-svc-rate-limit-unlogged.js';
import { SvcOAuthUsedStates1764000000100 } from './1764000000100-svc-oauth-used-states.js';
import { SvcEmailSkeleton1764000000200 } from './1764000000200-svc-email-skeleton.js';
import { SvcEmailLifecycle1764000000300 } from './1764000000300-svc-email-lifecycle.js';
import { SvcRefreshFamilies1764000000400 } from './1764000000400-svc-refresh-families.js';
import { SvcMfaTotp1764000000500 } from './1764000000500-svc-mfa-totp.js';
import { SvcPasskeys1764000000600 } from './1764000000600-svc-passkeys.js';
import { SvcUserRoles1764000000700 } from './1764000000700-svc-user-roles.js';
import { SvcAdministration1764000000800 } from './1764000000800-svc-administration.js';
import { SvcApiKeys1764000001100 } from './1764000001100-svc-api-keys.js';
import { SvcAuthTime1764000000900 } from './1764000000900-svc-auth-time.js';
import { SvcAuditEvents1764000001000 } from './1764000001000-svc-audit-events.js';
import { SvcOrganizations1764000001200 } from './1764000001200-svc-organizations.js';

export {
  SvcAdministration1764000000800,
  SvcApiKeys1764000001100,
  SvcAuditEvents1764000001000,
  SvcAuthTime1764000000900,
  SvcEmailLifecycle1764000000300,
  SvcEmailSkeleton1764000000200,
  SvcInitialSchema1763700000000,
  SvcMfaTotp1764000000500,
  SvcOAuthUsedStates1764000000100,
  SvcOrganizations1764000001200,
  SvcPasskeys1764000000600,
  SvcRateLimitUnlogged1763900000000,
  SvcRateLimitWindowEnd1763800000000,
  SvcRefreshFamilies1764000000400,
  SvcUserRoles1764000000700,
};

/** The library's migrations, in order, for the application's TypeORM `migrations` list. */
export const authMigrations = [
  SvcInitialSchema1763700000000,
  SvcRateLimitWindowEnd1763800000000,
  SvcRateLimitUnlogged1763900000000,
  SvcOAuthUsedStates1764000000100,
  SvcEmailSkeleton1764000000200,
  SvcEmailLifecycle1764000000300,
  SvcRefreshFamilies1764000000400,
  SvcMfaTotp1764000000500,
  SvcPasskeys1764000000600,
  SvcUserRoles1764000000700,
  SvcAdministration1764000000800,
  SvcAuthTime1764000000900,
  SvcAuditEvents1764000001000,
  SvcApiKeys1764000001100,
  SvcOrganizations1764000001200,
];
