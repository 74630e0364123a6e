import { Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import { RequireFreshAuth } from '../credentials/require-fresh-auth.decorator.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { type ApiKeyBody, ApiKeys, type CreatedApiKeyBody } from './api-keys.service.js';
import { apiKeyCreationBody } from './api-keys.requests.js';

/**
 * The signed-in user's API keys (docs/guides/machine-access.md). Mounted under the prefix with the
 * `apiKeys` section only. An API key itself is refused here (403 `API_KEY_NOT_ALLOWED`).
 */
@Controller()
export class ApiKeysController {
  constructor(private readonly keys: ApiKeys) {}

  /** 201 `{ id, name, key, scopes, createdAt, expiresAt }`: the key, shown this once. */
  @SvcRoute({
    summary: 'Create an API key for the signed-in user; the key is in this answer only',
    success: { description: 'The key, shown once', body: 'apiKeyCreated' },
    errors: ['API_KEY_SCOPE_INVALID', 'API_KEY_LIMIT'],
  })
  @Post('api-keys')
  @RestrictedWhileImpersonating()
  // Ending the account or adding a way in needs a recent sign-in (OWASP ASVS 5.0 V7.5.1).
  @RequireFreshAuth()
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.CREATED)
  create(@AuthBody(apiKeyCreationBody) payload: { name: string; scopes?: string[]; expiresInDays?: number }, @Req() request: Request): Promise<CreatedApiKeyBody> {
    return this.keys.create(principalOf(request)!.user, payload, request);
  }

  /** 200: the user's keys, newest first, without the keys. */
  @SvcRoute({ summary: "The signed-in user's API keys, newest first (never the keys themselves)", success: { description: 'The keys', body: 'apiKeys' } })
  @Get('api-keys')
  @UseGuards(CurrentUserGuard)
  list(@Req() request: Request): Promise<ApiKeyBody[]> {
    return this.keys.list(principalOf(request)!.user.id);
  }

  /** 204: refused from the next request on. */
  @SvcRoute({ summary: "Revoke one of the signed-in user's API keys", success: { description: 'Revoked' }, pathParameters: { id: 'uuid' }, errors: ['NOT_FOUND'] })
  @Delete('api-keys/:id')
  @RestrictedWhileImpersonating()
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.NO_CONTENT)
  revoke(@Param('id') id: string, @Req() request: Request): Promise<void> {
    return this.keys.revoke(principalOf(request)!.user, id, request);
  }
}
