import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { SvcUser } from '../entities/user.entity.js';
import type { SecurityNoticeKind } from '../config/mail-options.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { clientAddressOf } from '../http/client-address.js';
import { userAgentOf } from '../http/user-agent.js';
import { UserSerializer } from '../users/user-serializer.service.js';

/**
 * Security notices (docs/guides/account-security.md): one call, after the change has committed,
 * tells the user's address what changed and from where (OWASP ASVS 5.0 V6.3.7 and V7.2.4). The
 * event carries the user body, the notice, the request's address and user agent: never a token or
 * a secret. With the `mail` section svc mails it; otherwise the application's observers do.
 */
@Injectable()
export class SecurityNotices {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
  ) {}

  /** `svc.security.notice` about `user` (as it is after the change), after the response to `request`. */
  notify(request: Request, user: SvcUser, notice: SecurityNoticeKind): void {
    const body = this.serializer.serialize(user);
    this.events.publishAfterResponse(request, AuthEvent.SecurityNotice, { user: body, notice, ip: clientAddressOf(request, this.config), userAgent: userAgentOf(request) });
  }
}
