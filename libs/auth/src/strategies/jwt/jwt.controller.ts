import { Controller, Get, HttpCode, HttpStatus, Inject, Logger, Post, Req, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CLOCK, AUTH_CONFIG, SVC_LOGGER } from '../../auth.constants.js';
import type { Clock } from '../../clock.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { AuthError } from '../../errors/auth.error.js';
import { AuthEvent } from '../../events/auth-events.js';
import { AuthEventPublisher } from '../../events/auth-event-publisher.js';
import { CurrentUser } from '../../guards/current-user.decorator.js';
import { CurrentUserGuard } from '../../guards/current-user.guard.js';
import type { LoginPayload, SignupPayload } from '../../hooks/auth-hooks.js';
import { BeforeHookInterceptor, BodyOperation, payloadOf } from '../../hooks/before-hook.interceptor.js';
import { HookRunner } from '../../hooks/hook-runner.js';
import { clientIpOf } from '../../http/client-ip.js';
import { readCookie } from '../../http/cookies.js';
import { PasswordFlows } from '../../password/password-flows.service.js';
import { AuthRateLimit } from '../../rate-limit/rate-limit.decorators.js';
import type { UserBody } from '../../users/user-body.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import { type JwtCredential, JwtCredentialIssuer, type TokenBody, tokenBodyOf } from './jwt-credential.issuer.js';
import { JwtLogout } from './jwt-logout.service.js';
import { clearRefreshCookie, setRefreshCookie } from './refresh-cookie.js';
import { type RefreshOutcome, RefreshRotation } from './refresh-rotation.service.js';

/** signup, login, refresh, logout and /me of the jwt strategy (contract §2). Mounted under the prefix. */
@Controller()
export class JwtController {
  private readonly logger = new Logger(SVC_LOGGER);

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly flows: PasswordFlows,
    private readonly issuer: JwtCredentialIssuer,
    private readonly rotation: RefreshRotation,
    private readonly logoutFlow: JwtLogout,
    private readonly hooks: HookRunner,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
  ) {}

  @Post('signup')
  @AuthRateLimit()
  @HttpCode(HttpStatus.CREATED)
  @BodyOperation('signup', 'beforeSignup')
  @UseInterceptors(BeforeHookInterceptor)
  async signup(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<TokenBody> {
    const { credential } = await this.flows.signup(payloadOf<SignupPayload>(request), request, this.issuer.forLogin(this.refreshCookieOf(request)));
    return this.answer(response, credential!);
  }

  @Post('login')
  @AuthRateLimit({ perAccount: true })
  @HttpCode(HttpStatus.OK)
  @BodyOperation('login', 'beforeLogin')
  @UseInterceptors(BeforeHookInterceptor)
  async login(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<TokenBody> {
    const { user, credential } = await this.flows.login(payloadOf<LoginPayload>(request), request, this.issuer.forLogin(this.refreshCookieOf(request)));
    this.events.publishAfterResponse(request, AuthEvent.LoginAfter, { user: this.serializer.serialize(user), strategy: 'jwt' });
    return this.answer(response, credential);
  }

  /** The refresh cookie for a new pair; every failure clears the cookie (contract §1). */
  @Post('refresh')
  @AuthRateLimit()
  @HttpCode(HttpStatus.OK)
  async refresh(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<TokenBody> {
    const token = this.refreshCookieOf(request);
    await this.hooks.run('beforeRefresh', { hasRefreshToken: token !== undefined }, request);
    const outcome: RefreshOutcome = token ? await this.rotation.rotate(token) : { kind: 'invalid' };
    if (outcome.kind === 'rotated') {
      this.events.publishAfterResponse(request, AuthEvent.RefreshAfter, { userId: outcome.user.id, familyId: outcome.credential.refresh.familyId });
      return this.answer(response, outcome.credential);
    }
    clearRefreshCookie(response, this.config);
    if (outcome.kind === 'inactive') throw new AuthError('USER_INACTIVE');
    if (outcome.kind === 'reused' && outcome.newlyRevoked) {
      this.logger.warn(`refresh token reuse detected: family ${outcome.familyId} of user ${outcome.userId} revoked`);
      const { userId, familyId } = outcome;
      this.events.publishAfterResponse(request, AuthEvent.TokenReuseDetected, { userId, familyId, ip: clientIpOf(request), at: this.clock.now() });
    }
    throw new AuthError('REFRESH_TOKEN_INVALID');
  }

  /** Always 204 (idempotent): the families of the presented credentials are revoked, the cookie cleared. */
  @Post('logout')
  @HttpCode(HttpStatus.NO_CONTENT)
  async logout(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    const loggedOut = await this.logoutFlow.logout(request, response, this.refreshCookieOf(request));
    clearRefreshCookie(response, this.config);
    for (const userId of loggedOut) this.events.publishAfterResponse(request, AuthEvent.LogoutAfter, { userId });
  }

  @Get('me')
  @UseGuards(CurrentUserGuard)
  me(@CurrentUser() user: UserBody): UserBody {
    return user;
  }

  private refreshCookieOf(request: Request): string | undefined {
    return readCookie(request, this.config.cookie.refreshName);
  }

  private answer(response: Response, credential: JwtCredential): TokenBody {
    setRefreshCookie(response, this.config, credential.refresh.token);
    return tokenBodyOf(credential);
  }
}
