import { Controller, Delete, Get, HttpCode, HttpStatus, Inject, Param, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { CREDENTIAL_DEVICES } from './credential.tokens.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { isUuid } from '../persistence/uuid.js';
import { voidPendingEmailChanges } from '../users/pending-email-changes.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import type { CredentialDevices } from './credential-devices.js';
import type { Principal } from './credential-resolver.js';
import { CurrentUserGuard, principalOf } from './current-user.guard.js';

/** One entry of GET /sessions. */
export interface DeviceBody {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  userAgent: string | null;
  /** Whether it is the credential of this very request. */
  current: boolean;
}

/**
 * The signed-in user's devices, whatever the credential (docs/guides/devices.md): list them, end one, end
 * every other one (OWASP Session Management Cheat Sheet: let users see and end their active sessions;
 * ASVS 5.0 V7.5). An ended one is refused at its next request, through the credential's own checks.
 * Mounted under the prefix; a cookie-authenticated DELETE meets the cross-site check.
 */
@Controller()
@UseGuards(CurrentUserGuard)
export class DevicesController {
  constructor(
    @Inject(CREDENTIAL_DEVICES) private readonly devices: CredentialDevices,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: AuthEventPublisher,
  ) {}

  /** The live sessions (or refresh families), newest first. */
  @SvcRoute((config) => ({
    summary: config.credential === 'jwt' ? "The signed-in user's live refresh families (one per login), newest first" : "The signed-in user's live sessions, newest first",
    success: { description: 'The devices', body: 'devices' },
  }))
  @Get('sessions')
  async list(@Req() request: Request): Promise<DeviceBody[]> {
    const principal = principalOf(request)!;
    const devices = await this.unitOfWork.autocommit((manager) => this.devices.listOfUser(manager, principal.user.id));
    const current = currentDeviceOf(principal);
    return devices.map((device) => ({
      id: device.id,
      createdAt: device.createdAt.toISOString(),
      lastUsedAt: device.lastUsedAt.toISOString(),
      userAgent: device.userAgent,
      current: device.id === current,
    }));
  }

  /** 204; 404 NOT_FOUND for an id that is not one of the user's live devices (another user's looks unknown). */
  @SvcRoute({ summary: "End one of the user's sessions: its credential is refused at its next request", success: { description: 'Ended' }, pathParameters: { id: 'uuid' }, errors: ['NOT_FOUND'] })
  @Delete('sessions/:id')
  @HttpCode(HttpStatus.NO_CONTENT)
  async revokeOne(@Param('id') id: string, @Req() request: Request): Promise<void> {
    const userId = principalOf(request)!.user.id;
    const revoked = isUuid(id) && (await this.unitOfWork.transaction((manager) => this.devices.revokeOfUser(manager, userId, id.toLowerCase())));
    if (!revoked) throw new AuthError('NOT_FOUND', { message: 'No such session' });
    this.announce(request, userId, [id.toLowerCase()]);
  }

  /** 204: every live device of the user but the one making the request; every pending change of email is void. */
  @SvcRoute({ summary: "End every session of the user but this request's own", success: { description: 'Every other session ended' } })
  @Delete('sessions')
  @HttpCode(HttpStatus.NO_CONTENT)
  async revokeOthers(@Req() request: Request): Promise<void> {
    const principal = principalOf(request)!;
    const current = currentDeviceOf(principal);
    const userId = principal.user.id;
    const revoked = await this.unitOfWork.transaction(async (manager) => {
      // OWASP ASVS 5.0 V6: signing out everywhere spends a change of email a signed-out device asked for.
      await voidPendingEmailChanges(manager, userId);
      const ended: string[] = [];
      for (const device of await this.devices.listOfUser(manager, userId)) {
        if (device.id !== current && (await this.devices.revokeOfUser(manager, userId, device.id))) ended.push(device.id);
      }
      return ended;
    });
    this.announce(request, userId, revoked);
  }

  private announce(request: Request, userId: string, sessionIds: string[]): void {
    for (const sessionId of sessionIds) this.events.publishAfterResponse(request, AuthEvent.SessionRevoked, { userId, sessionId, by: 'user' });
  }
}

/** The device of the request's own credential: its session, or its access token's family. */
function currentDeviceOf(principal: Principal): string | undefined {
  return principal.sessionId ?? principal.familyId;
}
