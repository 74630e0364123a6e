import { Controller, Get, HttpCode, HttpStatus, Inject, Post, Req, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../../auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { AuthEvent } from '../../events/auth-events.js';
import { AuthEventPublisher } from '../../events/auth-event-publisher.js';
import { CurrentUser } from '../../guards/current-user.decorator.js';
import { CurrentUserGuard } from '../../guards/current-user.guard.js';
import type { LoginPayload, SignupPayload } from '../../hooks/auth-hooks.js';
import { BeforeHookInterceptor, BodyOperation, payloadOf } from '../../hooks/before-hook.interceptor.js';
import { HookRunner } from '../../hooks/hook-runner.js';
import { clearTokenCookie, readCookie, setTokenCookie } from '../../http/cookies.js';
import { PasswordFlows } from '../../password/password-flows.service.js';
import { UnitOfWork } from '../../persistence/unit-of-work.js';
import { AuthRateLimit } from '../../rate-limit/rate-limit.decorators.js';
import type { UserBody } from '../../users/user-body.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import { SessionStore, type IssuedSession } from './session-store.js';

/** signup, login, logout and /me of the session strategy (contract §2). Mounted under the prefix. */
@Controller()
export class SessionController {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly flows: PasswordFlows,
    private readonly sessions: SessionStore,
    private readonly unitOfWork: UnitOfWork,
    private readonly hooks: HookRunner,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
  ) {}

  @Post('signup')
  @AuthRateLimit()
  @HttpCode(HttpStatus.CREATED)
  @BodyOperation('signup', 'beforeSignup')
  @UseInterceptors(BeforeHookInterceptor)
  async signup(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<UserBody> {
    const issue = this.config.session.loginOnSignup ? this.issueFor(request) : undefined;
    const { user, credential } = await this.flows.signup(payloadOf<SignupPayload>(request), request, issue);
    if (credential) this.setSessionCookie(response, credential);
    return this.serializer.serialize(user);
  }

  @Post('login')
  @AuthRateLimit({ perAccount: true })
  @HttpCode(HttpStatus.OK)
  @BodyOperation('login', 'beforeLogin')
  @UseInterceptors(BeforeHookInterceptor)
  async login(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<UserBody> {
    const { user, credential } = await this.flows.login(payloadOf<LoginPayload>(request), request, this.issueFor(request));
    this.setSessionCookie(response, credential);
    const body = this.serializer.serialize(user);
    this.events.publishAfterResponse(request, AuthEvent.LoginAfter, { user: body, strategy: this.config.strategy });
    return body;
  }

  /** Always 204 (idempotent): the presented session, if any, is deleted and the cookie cleared. */
  @Post('logout')
  @HttpCode(HttpStatus.NO_CONTENT)
  async logout(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    const token = readCookie(request, this.config.cookie.sessionName);
    const owner = token ? await this.ownerOf(token) : null;
    await this.hooks.run('beforeLogout', { user: owner && this.serializer.serialize(owner) }, request);
    const userId = token ? await this.unitOfWork.transaction((manager) => this.sessions.delete(manager, token)) : undefined;
    clearTokenCookie(response, this.config, this.config.cookie.sessionName, this.config.cookie.path);
    if (userId) this.events.publishAfterResponse(request, AuthEvent.LogoutAfter, { userId });
  }

  @Get('me')
  @UseGuards(CurrentUserGuard)
  me(@CurrentUser() user: UserBody): UserBody {
    return user;
  }

  private issueFor(request: Request) {
    const presented = readCookie(request, this.config.cookie.sessionName);
    return (manager: Parameters<SessionStore['create']>[0], user: Parameters<SessionStore['create']>[1]) =>
      this.sessions.create(manager, user, request, presented);
  }

  private async ownerOf(token: string) {
    const found = await this.unitOfWork.read((manager) => this.sessions.findWithUser(manager, token));
    return found?.user ?? null;
  }

  private setSessionCookie(response: Response, session: IssuedSession): void {
    setTokenCookie(response, this.config, this.config.cookie.sessionName, session.token, this.config.cookie.path, this.config.session.expireDays * 86_400);
  }
}
