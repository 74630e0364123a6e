import { createHmac, randomBytes } from 'node:crypto';

/** The two counters of failed logins of one account (docs/decisions/0016-rate-limiting-windows-and-backends.md). */
export interface AccountFailureKeys {
  /** `account:<h>:<client>:<path>`: this client's failures for the account, against `max`. */
  ofClient: string;
  /** `account:<h>:<path>`: the failures for the account from every client, against `accountCeiling`. */
  ofAccount: string;
}

/**
 * Names an account in limiter keys by HMAC-SHA256 of its normalised email (base64url), never by the
 * email: the memory map, `rate_limit_counters.key` and Redis keys hold no address, and whoever reads
 * them cannot test a guessed email without the key. The key is derived from the module's secret
 * (`config.rateLimit.accountKey`); without one (the memory backend only) it is drawn at random for
 * this instance, as the counters themselves live and die with it.
 */
export class AccountKeys {
  private readonly key: Buffer;

  constructor(accountKey: string | undefined) {
    this.key = accountKey === undefined ? randomBytes(32) : Buffer.from(accountKey, 'base64url');
  }

  /** `account:<h>:<path>`: one account on one route, from every client. */
  ofAccount(email: string, path: string): string {
    return `account:${this.nameOf(email)}:${path}`;
  }

  /** The keys a failed login of `email` from `client` on `path` counts under. */
  failuresOf(email: string, client: string, path: string): AccountFailureKeys {
    const name = this.nameOf(email);
    return { ofClient: `account:${name}:${client}:${path}`, ofAccount: `account:${name}:${path}` };
  }

  private nameOf(email: string): string {
    return createHmac('sha256', this.key).update(email, 'utf8').digest('base64url');
  }
}
