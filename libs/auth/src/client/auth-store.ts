import type { ReauthMethod } from './svc-client-error.js';
import type { ClientUser } from './wire-types.js';

/** Where the person stands, as a page shows it. */
export type AuthSnapshot =
  | { readonly status: 'signed-out' }
  | { readonly status: 'signed-in'; readonly user: ClientUser }
  | { readonly status: 'two-step-required'; readonly methods: readonly ('totp' | 'recovery_code')[] }
  | { readonly status: 'reauth-required'; readonly user: ClientUser; readonly methods: readonly ReauthMethod[] };

export type AuthListener = () => void;

const SIGNED_OUT: AuthSnapshot = Object.freeze({ status: 'signed-out' });

/**
 * A tiny external store (React's `useSyncExternalStore`, Angular signals): the snapshot keeps its
 * identity until something changes, and listeners hear of each change once.
 */
export class AuthStore {
  private snapshot: AuthSnapshot = SIGNED_OUT;
  private readonly listeners = new Set<AuthListener>();

  readonly getSnapshot = (): AuthSnapshot => this.snapshot;

  readonly subscribe = (listener: AuthListener): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** The user currently known (signed in, or asked to sign in again). */
  user(): ClientUser | null {
    const current = this.snapshot;
    return current.status === 'signed-in' || current.status === 'reauth-required' ? current.user : null;
  }

  signedIn(user: ClientUser): void {
    this.set({ status: 'signed-in', user });
  }

  signedOut(): void {
    this.set(SIGNED_OUT);
  }

  twoStepRequired(methods: readonly ('totp' | 'recovery_code')[]): void {
    this.set({ status: 'two-step-required', methods });
  }

  reauthRequired(methods: readonly ReauthMethod[]): void {
    const user = this.user();
    if (user) this.set({ status: 'reauth-required', user, methods });
  }

  private set(next: AuthSnapshot): void {
    if (sameSnapshot(this.snapshot, next)) return;
    this.snapshot = Object.freeze(next);
    for (const listener of [...this.listeners]) listener();
  }
}

function sameSnapshot(a: AuthSnapshot, b: AuthSnapshot): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
