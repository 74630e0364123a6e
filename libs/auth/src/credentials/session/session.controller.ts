import { Controller, Get, HttpCode, HttpStatus, Optional, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuditLog } from '../../audit-log/audit-log.js';
import { hashToken } from '../../crypto/opaque-token.js';
import { AuthEvent } from '../../events/auth-events.js';
import { AuthEventPublisher } from '../../events/auth-event-publisher.js';
import { AcceptsApiKey } from '../api-key-access.js';
import { CurrentUser } from '../current-user.decorator.js';
import { CurrentUserGuard } from '../current-user.guard.js';
import type { LogoutPayload } from '../../hooks/auth-hooks.js';
import { BeforeHook } from '../../http/auth-body.decorator.js';
import { UnitOfWork } from '../../persistence/unit-of-work.js';
import type { UserBody } from '../../users/user-body.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import { SvcRoute } from '../../http/svc-route.decorator.js';
import { SessionCookie } from './session-cookie.js';
import { SessionStore } from './session-store.js';
import { NativeTokens } from '../native/native-tokens.service.js';

/** logout and /me of the session credential, whatever the login method. Mounted under the prefix. */
@Controller()
export class SessionController {
  constructor(
    private readonly sessions: SessionStore,
    private readonly cookie: SessionCookie,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
    private readonly audit: AuditLog,
    // Present with `nativeClients: true` (docs/guides/machine-access.md).
    @Optional() private readonly native?: NativeTokens,
  ) {}

  /** Always 204 (idempotent): the presented session, if any, is deleted and the cookie cleared. */
  @SvcRoute({ summary: 'End the presented credential (idempotent)', success: { description: 'Signed out, cookie cleared' } })
  @Post('logout')
  @HttpCode(HttpStatus.NO_CONTENT)
  @BeforeHook('beforeLogout', (controller: SessionController, request) => controller.logoutHookPayload(request))
  async logout(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    // A native client's refresh family, from the body or the bearer token; no cookie is cleared.
    if (this.native?.isNative(request)) return this.native.logout(request, true);
    const token = this.cookie.read(request);
    const userId = token
      ? await this.unitOfWork.transaction(async (manager) => {
          const ended = await this.sessions.delete(manager, token);
          if (ended) await this.audit.record(manager, { action: 'logout', userId: ended, request });
          return ended;
        })
      : undefined;
    this.cookie.clear(response);
    if (userId) this.events.publishAfterResponse(request, AuthEvent.LogoutAfter, { userId });
  }

  @SvcRoute({ summary: 'The signed-in user', success: { description: 'The user body', body: 'user' } })
  @Get('me')
  @AcceptsApiKey()
  @UseGuards(CurrentUserGuard)
  me(@CurrentUser() user: UserBody): UserBody {
    return user;
  }

  /** What `beforeLogout` sees: the owner of the presented session, if any. */
  async logoutHookPayload(request: Request): Promise<LogoutPayload> {
    if (this.native?.isNative(request)) {
      const nativeOwner = await this.native.ownerOf(request);
      return { user: nativeOwner && this.serializer.serialize(nativeOwner) };
    }
    const token = this.cookie.read(request);
    const owner = token ? await this.ownerOf(token) : null;
    return { user: owner && this.serializer.serialize(owner) };
  }

  private async ownerOf(token: string) {
    const found = await this.unitOfWork.autocommit((manager) => this.sessions.findWithUser(manager, hashToken(token)));
    return found?.user ?? null;
  }
}
