import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import bcrypt from 'bcrypt';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { normalizePassword } from '../users/password-rules.js';
import type { PasswordCheck } from '../email/password-method.js';
import { type BcryptRunner, BcryptThreads } from './bcrypt-threads.js';

/**
 * bcrypt over the NFKC form of the password, with the configured cost (docs/decisions/0006-validation.md), on
 * the library's own low-priority threads (docs/decisions/0008-passwords.md).
 */
@Injectable()
export class PasswordHasher implements PasswordCheck, OnModuleInit, OnModuleDestroy {
  /** Compared against when the email is unknown, so both failures take one bcrypt's time. */
  private dummyHash: string;
  private threads: BcryptRunner;

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  async onModuleInit(): Promise<void> {
    this.threads = this.createRunner();
    this.dummyHash = await this.threads.hash(randomBytes(32).toString('base64url'), this.cost);
  }

  onModuleDestroy(): Promise<void> {
    return this.threads.close();
  }

  hash(password: string): Promise<string> {
    return this.threads.hash(normalizePassword(password), this.cost);
  }

  /** Constant-time comparison (bcrypt.compare); a null hash still costs one comparison. */
  async verify(password: string, hash: string | null): Promise<boolean> {
    const normalized = normalizePassword(password);
    // bcrypt stops at a NUL and after 72 bytes: such a password could match a shorter one, so it
    // never matches (it still costs one comparison, for equal timing).
    const comparable = !normalized.includes('\0') && Buffer.byteLength(normalized, 'utf8') <= 72;
    const matches = await this.threads.compare(comparable ? normalized : '', hash ?? this.dummyHash);
    return matches && comparable && hash !== null;
  }

  /** The hash was made with a lower cost than configured: re-hash at the next login. */
  needsRehash(hash: string): boolean {
    return bcrypt.getRounds(hash) < this.cost;
  }

  /** Where bcrypt runs: the library's low-priority threads, one per core (the testing kit's hasher runs it in place). */
  protected createRunner(): BcryptRunner {
    return new BcryptThreads(availableParallelism());
  }

  /** The bcrypt cost of new hashes and of the dummy one: the configured cost (the testing kit's hasher lowers it). */
  protected get cost(): number {
    return this.config.password.bcryptCost;
  }
}
