import { Controller, HttpCode, HttpStatus, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AuthError } from '../../errors/auth.error.js';
import type { RefreshPayload } from '../../hooks/auth-hooks.js';
import { BeforeHook } from '../../http/auth-body.decorator.js';
import { SvcRoute } from '../../http/svc-route.decorator.js';
import { AuthRateLimit } from '../../rate-limit/rate-limit.decorators.js';
import type { NativeTokenBody } from './native-client.js';
import { hasNativeRefreshToken } from './native-refresh-token.js';
import { NativeTokens } from './native-tokens.service.js';

/**
 * POST /refresh of a session module with native clients on (docs/guides/machine-access.md): only a
 * native client holds a refresh token there, so a request without `X-Svc-Client: native` is 401
 * `REFRESH_TOKEN_INVALID` (there is no refresh cookie to read). Mounted under the prefix.
 */
@Controller()
export class NativeRefreshController {
  constructor(private readonly native: NativeTokens) {}

  @SvcRoute({
    summary: "Trade a native client's refresh token (in the body) for a new pair (single use)",
    // The native token body (the OpenAPI document's SvcNativeTokenBody); no cookie is set.
    success: { description: 'A fresh pair, in the body' },
    errors: ['REFRESH_TOKEN_INVALID', 'USER_INACTIVE', 'VALIDATION_FAILED'],
  })
  @Post('refresh')
  @AuthRateLimit()
  @HttpCode(HttpStatus.OK)
  @BeforeHook('beforeRefresh', (controller: NativeRefreshController, request) => controller.refreshHookPayload(request))
  refresh(@Req() request: Request): Promise<NativeTokenBody> {
    if (!this.native.isNative(request)) throw new AuthError('REFRESH_TOKEN_INVALID');
    return this.native.refresh(request);
  }

  /** What `beforeRefresh` sees: whether a refresh token came in the body. */
  refreshHookPayload(request: Request): RefreshPayload {
    return { hasRefreshToken: this.native.isNative(request) && hasNativeRefreshToken(request) };
  }
}
