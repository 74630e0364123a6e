import { Controller, Delete, Get, HttpCode, HttpStatus, Param, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import type { OAuthMethod } from '../config/login-methods.js';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import { RequireFreshAuth } from '../credentials/require-fresh-auth.decorator.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { LinkedAccounts, type LinkedAccountsBody } from './linked-accounts.service.js';
import { oauthMethodsOf, providerNamesOf } from './provider-names.js';

/** The signed-in user's ways in (docs/guides/linking.md). Mounted under the prefix with the provider methods. */
@Controller()
@UseGuards(CurrentUserGuard)
export class LinkedAccountsController {
  constructor(
    private readonly accounts: LinkedAccounts,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
  ) {}

  @SvcRoute({ summary: "The signed-in user's ways in: a password, and the linked identities", success: { description: 'The ways in', body: 'accounts' } })
  @Get('accounts')
  list(@Req() request: Request): Promise<LinkedAccountsBody> {
    return this.accounts.list(principalOf(request)!.user);
  }

  /** 204; `svc.account.unlinked` after the response. */
  @SvcRoute((config) => {
    const methods = oauthMethodsOf(config);
    return {
      summary: 'Unlink an identity (never the only way in)',
      success: { description: 'Unlinked' },
      pathParameters: { method: methods, provider: methods.flatMap((method) => providerNamesOf(config, method)) },
      errors: ['NOT_FOUND', 'LAST_LOGIN_METHOD'],
    };
  })
  @Delete('accounts/:method/:provider')
  @RestrictedWhileImpersonating()
  // Removing a way in needs a recent sign-in (OWASP ASVS 5.0 V7.5.1).
  @RequireFreshAuth()
  @HttpCode(HttpStatus.NO_CONTENT)
  async unlink(@Param('method') method: string, @Param('provider') provider: string, @Req() request: Request): Promise<void> {
    const user = await this.accounts.unlink(principalOf(request)!.user.id, method, provider, request);
    this.events.publishAfterResponse(request, AuthEvent.AccountUnlinked, { user: this.serializer.serialize(user), method: method as OAuthMethod, provider });
  }
}
