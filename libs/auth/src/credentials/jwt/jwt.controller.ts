import { Controller, Get, HttpCode, HttpStatus, Optional, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthEvent } from '../../events/auth-events.js';
import { AuthEventPublisher } from '../../events/auth-event-publisher.js';
import { AcceptsApiKey } from '../api-key-access.js';
import { CurrentUser } from '../current-user.decorator.js';
import { CurrentUserGuard } from '../current-user.guard.js';
import type { RefreshPayload } from '../../hooks/auth-hooks.js';
import { BeforeHook } from '../../http/auth-body.decorator.js';
import { AuthRateLimit } from '../../rate-limit/rate-limit.decorators.js';
import type { UserBody } from '../../users/user-body.js';
import { SvcRoute } from '../../http/svc-route.decorator.js';
import { JwtCredentialIssuer, type TokenBody } from './jwt-credential.issuer.js';
import { JwtLogout } from './jwt-logout.service.js';
import { RefreshCookie } from './refresh-cookie.js';
import { NativeTokens } from '../native/native-tokens.service.js';
import { hasNativeRefreshToken } from '../native/native-refresh-token.js';
import { RefreshOutcomes } from './refresh-outcomes.js';
import { type RefreshOutcome, RefreshRotation } from './refresh-rotation.service.js';

/** refresh, logout and /me of the jwt credential (docs/guides/jwt.md), whatever the login method. Mounted under the prefix. */
@Controller()
export class JwtController {
  constructor(
    private readonly issuer: JwtCredentialIssuer,
    private readonly rotation: RefreshRotation,
    private readonly outcomes: RefreshOutcomes,
    private readonly logoutFlow: JwtLogout,
    private readonly cookie: RefreshCookie,
    private readonly events: AuthEventPublisher,
    // Present with `nativeClients: true` (docs/guides/machine-access.md).
    @Optional() private readonly native?: NativeTokens,
  ) {}

  /** The refresh cookie for a new pair; every failure clears the cookie. */
  @SvcRoute({
    summary: 'Trade the refresh cookie for a new access token and refresh cookie (single use)',
    success: { description: 'A fresh pair', body: 'token' },
    refreshCookie: true,
    errors: ['REFRESH_TOKEN_INVALID', 'USER_INACTIVE'],
  })
  @Post('refresh')
  @AuthRateLimit()
  @HttpCode(HttpStatus.OK)
  @BeforeHook('beforeRefresh', (controller: JwtController, request) => controller.refreshHookPayload(request))
  async refresh(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<TokenBody> {
    if (this.native?.isNative(request)) return this.native.refresh(request);
    const token = this.cookie.read(request);
    const outcome: RefreshOutcome = token ? await this.rotation.rotate(token) : { kind: 'invalid' };
    if (outcome.kind === 'rotated') {
      this.outcomes.rotated(request, outcome);
      return this.issuer.deliverAsJson(response, outcome.credential);
    }
    this.cookie.clear(response);
    throw this.outcomes.refusal(request, outcome);
  }

  /** What `beforeRefresh` sees: whether a refresh cookie was presented. */
  refreshHookPayload(request: Request): RefreshPayload {
    if (this.native?.isNative(request)) return { hasRefreshToken: hasNativeRefreshToken(request) };
    return { hasRefreshToken: this.cookie.read(request) !== undefined };
  }

  /** Always 204 (idempotent): the families of the presented credentials are revoked, the cookie cleared. */
  // beforeLogout runs in JwtLogout, once it has read the presented credentials.
  @SvcRoute({ summary: 'End the presented credential (idempotent)', success: { description: 'Signed out, cookie cleared' }, refreshCookie: true, errors: ['HOOK_ABORTED', 'HOOK_FAILED'] })
  @Post('logout')
  @HttpCode(HttpStatus.NO_CONTENT)
  async logout(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    if (this.native?.isNative(request)) return this.native.logout(request);
    const loggedOut = await this.logoutFlow.logout(request, this.cookie.read(request));
    this.cookie.clear(response);
    for (const userId of loggedOut) this.events.publishAfterResponse(request, AuthEvent.LogoutAfter, { userId });
  }

  @SvcRoute({ summary: 'The signed-in user', success: { description: 'The user body', body: 'user' } })
  @Get('me')
  @AcceptsApiKey()
  @UseGuards(CurrentUserGuard)
  me(@CurrentUser() user: UserBody): UserBody {
    return user;
  }
}
