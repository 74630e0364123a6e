import { Controller, HttpCode, HttpStatus, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import type { SecretString } from '../hooks/secret-string.js';
import { emptyBody } from '../http/auth-body-schema.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { passkeyLoginBody } from '../passkeys/passkey.requests.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import type { WebAuthnAssertionJson } from '../users/webauthn-response-rules.js';
import { Reauthentication } from './reauth.service.js';
import { reauthBody } from './reauth.requests.js';
import { PasskeysOn } from './passkeys-on.guard.js';

interface ReauthBody {
  password?: SecretString;
  code?: SecretString;
}

/**
 * Fresh sign-in (docs/guides/account-security.md): the signed-in user re-authenticates, and the
 * presented credential counts as freshly signed in. Rate limited as a login is, per address and
 * per user. An administrator acting as the user cannot (OWASP ASVS 5.0 V8.2.1).
 */
@Controller()
export class ReauthController {
  constructor(private readonly reauthentication: Reauthentication) {}

  /** 204 (session) or 200 with a new access token (jwt). */
  @SvcRoute((config) => ({
    summary: 'Confirm it is you: the current password, or a code of the authenticator app; the credential counts as freshly signed in',
    success: config.credential === 'jwt' ? { status: 200, description: 'A new access token with the new auth_time', body: 'token' } : { status: 204, description: 'The session counts as freshly signed in' },
    errors: ['INVALID_CREDENTIALS', 'MFA_CODE_INVALID'],
    errorStatus: { MFA_CODE_INVALID: 401 },
  }))
  @Post('reauth')
  @RestrictedWhileImpersonating()
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.OK)
  async reauth(@AuthBody(reauthBody) body: ReauthBody, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object | undefined> {
    const principal = principalOf(request)!;
    const done = body.password !== undefined ? await this.reauthentication.withPassword(principal, body.password.reveal()) : await this.reauthentication.withCode(principal, body.code!.reveal());
    return this.answer(response, this.reauthentication.deliver(response, done));
  }

  /** 200: request options naming the user's own passkeys; the challenge cookie is set. */
  @SvcRoute({
    summary: "Request options to confirm it is you with one of the signed-in user's passkeys; sets the challenge cookie",
    success: { description: 'PublicKeyCredentialRequestOptionsJSON', body: 'passkeyRequestOptions' },
  })
  @Post('reauth/passkey/options')
  @RestrictedWhileImpersonating()
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.OK)
  // Applied first, so it runs first: without passkeys the path is no route.
  @UseGuards(PasskeysOn)
  passkeyOptions(@AuthBody(emptyBody) _body: object, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object> {
    return this.reauthentication.passkeyOptions(principalOf(request)!, response);
  }

  /** 204 (session) or 200 with a new access token (jwt). */
  @SvcRoute((config) => ({
    summary: "Confirm it is you with one of the signed-in user's passkeys; the credential counts as freshly signed in",
    success: config.credential === 'jwt' ? { status: 200, description: 'A new access token with the new auth_time', body: 'token' } : { status: 204, description: 'The session counts as freshly signed in' },
    errors: ['PASSKEY_INVALID'],
  }))
  @Post('reauth/passkey')
  @RestrictedWhileImpersonating()
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.OK)
  @UseGuards(PasskeysOn)
  async passkey(@AuthBody(passkeyLoginBody) payload: { response: WebAuthnAssertionJson }, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object | undefined> {
    const done = await this.reauthentication.withPasskey(principalOf(request)!, payload.response, request, response);
    return this.answer(response, this.reauthentication.deliver(response, done));
  }

  /** No body: 204 (the session strategy). */
  private answer(response: Response, body: object | undefined): object | undefined {
    if (body === undefined) response.status(HttpStatus.NO_CONTENT);
    return body;
  }
}
