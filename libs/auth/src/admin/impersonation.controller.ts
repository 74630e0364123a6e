import { Controller, HttpCode, HttpStatus, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { emptyBody } from '../http/auth-body-schema.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { Impersonation } from './impersonation.service.js';

/**
 * POST `<prefix>/admin/impersonation/stop` (docs/guides/administration.md): the one admin route an
 * impersonated credential may use, and only it: ends that credential. Needs no permission.
 */
@Controller()
@UseGuards(CurrentUserGuard)
export class ImpersonationController {
  constructor(private readonly impersonation: Impersonation) {}

  /** 204, the impersonated credential ended and its cookie cleared; 409 `NOT_IMPERSONATING` for a user's own credential. */
  @SvcRoute({ summary: 'End the impersonated credential presented', success: { description: 'Ended, cookie cleared' }, errors: ['NOT_IMPERSONATING'] })
  @Post('admin/impersonation/stop')
  @HttpCode(HttpStatus.NO_CONTENT)
  stop(@AuthBody(emptyBody) _body: object, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    return this.impersonation.stop(principalOf(request)!, request, response);
  }
}
