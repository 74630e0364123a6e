import { Injectable } from '@nestjs/common';
import { bcryptInPlace } from '../password/bcrypt-in-place.js';
import type { BcryptRunner } from '../password/bcrypt-threads.js';
import { PasswordHasher } from '../password/password-hasher.js';

/** How far below the configured cost the testing kit hashes: the allowed 10..15 become bcrypt's 4..9. */
const LOW_COST_OFFSET = 6;

/** The bcrypt cost the testing kit's hasher uses where the application configures `configuredCost`. */
export function lowCostOf(configuredCost: number): number {
  return configuredCost - LOW_COST_OFFSET;
}

/**
 * The library's hasher for tests: bcrypt at the configured cost minus 6, so cost 10 hashes at
 * bcrypt's minimum 4 (about 1 ms instead of 70). The order of costs is kept, so a stored hash
 * below the configured cost is still upgraded at the next login. Only tests get it: the module
 * itself keeps refusing a `password.bcryptCost` under 10 (OWASP Password Storage Cheat Sheet,
 * bcrypt work factor 10 or more). It runs bcrypt in place (`bcryptInPlace`) rather than on the library's
 * low-priority threads, which the hasher of an application, and `passwordHasher: 'configured'`, use.
 */
@Injectable()
export class LowCostPasswordHasher extends PasswordHasher {
  protected override get cost(): number {
    return lowCostOf(super.cost);
  }

  protected override createRunner(): BcryptRunner {
    return bcryptInPlace;
  }
}

/** The provider override that gives a test module the low-cost hasher. */
export const lowCostPasswordHasher = { provide: PasswordHasher, useClass: LowCostPasswordHasher } as const;
