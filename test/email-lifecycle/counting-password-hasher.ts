import { Injectable } from '@nestjs/common';
import { LowCostPasswordHasher } from '#svc/auth/testing';

/** The testing kit's low-cost hasher, counting its bcrypt comparisons: a refusal's work, seen from outside the timing. */
@Injectable()
export class CountingPasswordHasher extends LowCostPasswordHasher {
  comparisons = 0;

  override async verify(password: string, hash: string | null): Promise<boolean> {
    this.comparisons++;
    return super.verify(password, hash);
  }
}
