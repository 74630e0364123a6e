import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuditLog } from '../audit-log/audit-log.js';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { CREDENTIAL_DEVICES, CREDENTIAL_ISSUER } from '../credentials/credential.tokens.js';
import type { CredentialDevices } from '../credentials/credential-devices.js';
import type { CredentialIssuer } from '../credentials/credential-issuer.js';
import type { Principal } from '../credentials/credential-resolver.js';
import { grantsPermission, permissionsOfRoles } from '../config/authorization-policy.js';
import { RoleStore } from '../authorization/role-store.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { LoginCompletion } from '../login/login-completion.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { UserStore } from '../users/user-store.js';
import { noSuchUser } from './user-directory.js';

/**
 * An administrator acting as a user, for support (docs/guides/administration.md): the user's
 * credential exactly as a login issues it, marked with the administrator's id, ending within
 * `admin.impersonationTtlSeconds` (an hour at most), and narrower than the user's own (the routes
 * marked `@RestrictedWhileImpersonating()` refuse it). The administrator's own credential stays as it was.
 */
@Injectable()
export class Impersonation {
  private readonly lifetimeSeconds: number;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(CREDENTIAL_DEVICES) private readonly devices: CredentialDevices,
    @Inject(CREDENTIAL_ISSUER) private readonly issuer: CredentialIssuer,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly completion: LoginCompletion,
    private readonly serializer: UserSerializer,
    private readonly events: AuthEventPublisher,
    private readonly roles: RoleStore,
    private readonly audit: AuditLog,
  ) {
    this.lifetimeSeconds = config.admin!.impersonationTtlSeconds;
  }

  /**
   * 200 with the user's credential; 404 for an unknown user, 403 `USER_INACTIVE` for an inactive one
   * (as their login would be), 403 `PERMISSION_DENIED` when the user may impersonate others (an
   * administrator is never acted as).
   */
  async start(admin: Principal, userId: string, request: Request, response: Response): Promise<object> {
    const actorId = admin.user.id;
    // Under the user's row lock, as a grant of a role takes it: what is checked is what is issued.
    const staged = await this.unitOfWork.transaction(async (manager) => {
      const target = await this.users.lockById(manager, userId);
      if (!target) throw noSuchUser();
      if (!target.isActive) throw new AuthError('USER_INACTIVE');
      // OWASP ASVS 5.0 V8.2.1: impersonation never reaches an account that holds the same power.
      if (this.mayImpersonate(await this.roles.list(manager, target.id))) throw new AuthError('PERMISSION_DENIED', { message: 'This user may impersonate others and cannot be impersonated' });
      await this.audit.record(manager, { action: 'impersonation_started', userId: target.id, actorId, request });
      return this.completion.impersonate(manager, target, request, { actorId, lifetimeSeconds: this.lifetimeSeconds });
    });
    this.events.publishAfterResponse(request, AuthEvent.ImpersonationStarted, { user: this.serializer.serialize(staged.user), actorId });
    return this.completion.impersonationAsJson(response, staged);
  }

  /** Whether these roles grant `users:impersonate`. */
  private mayImpersonate(roles: readonly string[]): boolean {
    return grantsPermission(permissionsOfRoles(this.config.authorization!, roles), 'users:impersonate');
  }

  /** Ends the impersonated credential the request presented and clears its cookie; 409 `NOT_IMPERSONATING` for the user's own. */
  async stop(principal: Principal, request: Request, response: Response): Promise<void> {
    const actorId = principal.impersonatedBy;
    if (actorId === undefined) throw new AuthError('NOT_IMPERSONATING');
    const credentialId = principal.sessionId ?? principal.familyId!;
    const userId = principal.user.id;
    await this.unitOfWork.transaction(async (manager) => {
      await this.devices.revokeOfUser(manager, userId, credentialId);
      await this.audit.record(manager, { action: 'impersonation_stopped', userId, actorId, request });
    });
    this.issuer.clearCookie(response);
    this.events.publishAfterResponse(request, AuthEvent.ImpersonationStopped, { userId, actorId });
  }
}
