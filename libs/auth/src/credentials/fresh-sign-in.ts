import { type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Clock } from '../config/clock.js';
import { OAuthAccount } from '../entities/oauth-account.entity.js';
import { Passkey } from '../entities/passkey.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { WaysIn } from '../users/ways-in.js';
import type { Principal } from './credential-resolver.js';

/** Metadata key of `@RequireFreshAuth()`: the route's own maximum age in seconds, or null for `reauth.maxAgeSeconds`. */
export const FRESH_AUTH_ROUTE = 'svc:fresh-auth-route';

/** A way to re-authenticate: `password`, `totp`, `passkey`, or `<method>:<provider>` (`oidc:google`). */
export type ReauthMethod = string;

/** The route's `@RequireFreshAuth()` (handler first, then controller): undefined when it has none, null for the option's age. */
export function freshAuthOf(handler: Function, controller: Function): number | null | undefined {
  const own = Reflect.getMetadata(FRESH_AUTH_ROUTE, handler) as number | null | undefined;
  return own !== undefined ? own : (Reflect.getMetadata(FRESH_AUTH_ROUTE, controller) as number | null | undefined);
}

/**
 * The fresh sign-in rule (OWASP ASVS 5.0 V7.5.1: re-authenticate before changing how the account is
 * reached): the credential's `authTime` is within the route's age, else 403 `REAUTH_REQUIRED`. Fails
 * closed: an unknown `authTime`, or one in the future, is not fresh.
 */
@Injectable()
export class FreshSignIn {
  private readonly providerMethods: ReadonlyMap<string, string>;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly waysIn: WaysIn,
  ) {
    this.providerMethods = new Map([...(config.oauth2?.providers ?? []).map((p) => [p.name, 'oauth2'] as const), ...(config.oidc?.providers ?? []).map((p) => [p.name, 'oidc'] as const)]);
  }

  /**
   * On a `@RequireFreshAuth()` route, refuses a credential whose sign-in is too old. Answers at once
   * (no promise, no turn of the microtask queue) on every other route and for a fresh credential;
   * only a refusal reads the database, for its `methods`.
   */
  assertFreshFor(context: ExecutionContext, principal: Principal): Promise<never> | undefined {
    const maxAge = freshAuthOf(context.getHandler(), context.getClass());
    if (maxAge === undefined || this.isFresh(principal, maxAge ?? this.config.reauth.maxAgeSeconds)) return undefined;
    return this.refuse(principal);
  }

  /** Whether the credential signed in within `maxAgeSeconds` (default `reauth.maxAgeSeconds`). */
  isFresh(principal: Principal, maxAgeSeconds = this.config.reauth.maxAgeSeconds): boolean {
    // An administrator acting as the user never proved to be the user: never fresh (OWASP ASVS 5.0 V8.2.1).
    if (principal.authTime === null || principal.impersonatedBy !== undefined) return false;
    const age = this.clock.now().getTime() - principal.authTime.getTime();
    return age >= -1000 && age <= maxAgeSeconds * 1000;
  }

  async assertFresh(principal: Principal, maxAgeSeconds = this.config.reauth.maxAgeSeconds): Promise<void> {
    if (!this.isFresh(principal, maxAgeSeconds)) await this.refuse(principal);
  }

  private async refuse(principal: Principal): Promise<never> {
    throw new AuthError('REAUTH_REQUIRED', { details: { methods: await this.methodsOf(principal) } });
  }

  /** The ways this user can re-authenticate here: each is one they could sign in with. */
  async methodsOf(principal: Principal): Promise<ReauthMethod[]> {
    const { user } = principal;
    const methods: ReauthMethod[] = [];
    if (this.waysIn.signsInWithPassword(user)) methods.push('password');
    if (this.config.mfa && user.mfaTotpEnabled && this.config.loginMethods.includes('password')) methods.push('totp');
    await this.unitOfWork.autocommit(async (manager) => {
      if (this.config.passkeys && (await manager.countBy(Passkey, { userId: user.id })) > 0) methods.push('passkey');
      if (this.providerMethods.size === 0) return;
      const accounts = await manager.find(OAuthAccount, { select: { provider: true }, where: { userId: user.id, provider: In([...this.providerMethods.keys()]) }, order: { provider: 'ASC' } });
      for (const { provider } of accounts) methods.push(`${this.providerMethods.get(provider)}:${provider}`);
    });
    return methods;
  }
}
