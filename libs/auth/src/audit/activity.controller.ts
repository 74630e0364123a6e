import { Controller, Get, Query, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import type { ActivityBody } from './activity-bodies.js';
import { ActivityReader } from './activity-reader.js';
import { listLimitOf } from './list-limit.js';

/**
 * The signed-in user's own activity (docs/guides/account-security.md): what happened to their
 * account, newest first, so they can spot what they did not do (OWASP ASVS 5.0 V6.3.5, V16.1).
 * Mounted with the `audit` section only.
 */
@Controller()
@UseGuards(CurrentUserGuard)
export class ActivityController {
  constructor(private readonly reader: ActivityReader) {}

  /** 200, a bare array `[{ action, at, ip, userAgent }]`, newest first; `?limit=` 1..100, default 20. */
  @SvcRoute({ summary: "The signed-in user's own activity, newest first: `?limit=` 1..100 (default 20)", success: { description: '[{ action, at, ip, userAgent }]' }, errors: ['VALIDATION_FAILED'] })
  @Get('me/activity')
  list(@Query('limit') limit: unknown, @Req() request: Request): Promise<ActivityBody[]> {
    return this.reader.ofUser(principalOf(request)!.user.id, listLimitOf(limit));
  }
}
