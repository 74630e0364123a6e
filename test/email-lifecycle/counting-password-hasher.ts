import { Injectable } from '@nestjs/common';
import { PasswordHasher } from '../../libs/auth/src/login/password/password-hasher.js';

/** The library's hasher, counting its bcrypt comparisons: a refusal's work, seen from outside the timing. */
@Injectable()
export class CountingPasswordHasher extends PasswordHasher {
  comparisons = 0;

  override async verify(password: string, hash: string | null): Promise<boolean> {
    this.comparisons++;
    return super.verify(password, hash);
  }
}
