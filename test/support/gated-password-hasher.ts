import { Injectable } from '@nestjs/common';
import { LowCostPasswordHasher } from '#svc/auth/testing';

/** A point where a request stops until the test lets it go on; `entered` says it got there. */
export class Gate {
  readonly entered: Promise<void>;
  private signalEntered!: () => void;
  private readonly released: Promise<void>;
  private releaseNow!: () => void;
  private passed = false;

  constructor() {
    this.entered = new Promise((resolve) => (this.signalEntered = resolve));
    this.released = new Promise((resolve) => (this.releaseNow = resolve));
  }

  /** Called by the paused request. */
  async pass(): Promise<void> {
    this.passed = true;
    this.signalEntered();
    await this.released;
  }

  release(): void {
    this.releaseNow();
  }

  get reached(): boolean {
    return this.passed;
  }
}

/**
 * The testing kit's low-cost hasher, with a gate the test can put after the next bcrypt call: the request that
 * makes that call stops right after bcrypt answered, before it goes on to its transaction. This
 * fixes an interleaving of concurrent HTTP requests instead of hoping for it.
 */
@Injectable()
export class GatedPasswordHasher extends LowCostPasswordHasher {
  private verifyGate?: Gate;
  private hashGate?: Gate;

  /** The next `verify` (the login's password check) stops at the returned gate. */
  pauseNextVerify(): Gate {
    return (this.verifyGate = new Gate());
  }

  /** The next `hash` (a signup, a reset, or a login's silent upgrade) stops at the returned gate. */
  pauseNextHash(): Gate {
    return (this.hashGate = new Gate());
  }

  override async verify(password: string, hash: string | null): Promise<boolean> {
    const gate = this.verifyGate;
    this.verifyGate = undefined;
    const matches = await super.verify(password, hash);
    await gate?.pass();
    return matches;
  }

  override async hash(password: string): Promise<string> {
    const gate = this.hashGate;
    this.hashGate = undefined;
    const hashed = await super.hash(password);
    await gate?.pass();
    return hashed;
  }
}
