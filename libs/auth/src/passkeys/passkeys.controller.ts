import { Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Request, Response } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { LoginCompletion } from '../login/login-completion.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { UnprovenMailbox } from '../users/unproven-mailbox.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import type { WebAuthnAssertionJson, WebAuthnRegistrationJson } from '../users/webauthn-response-rules.js';
import { PasskeyList, type PasskeyBody, passkeyBodyOf } from './passkey-list.service.js';
import { PasskeyLogin } from './passkey-login.service.js';
import { PasskeyRegistration } from './passkey-registration.service.js';

/**
 * Passkeys (docs/guides/passkeys.md): adding one (signed in), signing in with one (no credential needed),
 * and the signed-in user's list. Mounted under the prefix with the `passkeys` section only.
 */
@Controller()
export class PasskeysController {
  constructor(
    private readonly registration: PasskeyRegistration,
    private readonly login: PasskeyLogin,
    private readonly list: PasskeyList,
    private readonly completion: LoginCompletion,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
    private readonly mailbox: UnprovenMailbox,
  ) {}

  /** 200: creation options for `navigator.credentials.create()`; the challenge cookie is set. 403 before the email is verified. */
  @Post('passkeys/register/options')
  @RestrictedWhileImpersonating()
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.OK)
  registrationOptions(@AuthBody('empty') _body: object, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const user = principalOf(request)!.user;
    this.mailbox.refuseNewWayIn(user);
    return this.registration.options(user, response);
  }

  /** 201 `{ id, name, createdAt }`; `svc.passkey.registered` after the response. */
  @Post('passkeys/register')
  @RestrictedWhileImpersonating()
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.CREATED)
  async register(
    @AuthBody('passkeyRegistration') payload: { response: WebAuthnRegistrationJson; name?: string },
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Omit<PasskeyBody, 'lastUsedAt'>> {
    const user = principalOf(request)!.user;
    this.mailbox.refuseNewWayIn(user);
    const passkey = await this.registration.register(user, payload.response, payload.name ?? undefined, request, response);
    this.events.publishAfterResponse(request, AuthEvent.PasskeyRegistered, { user: this.serializer.serialize(user), passkeyId: passkey.id, name: passkey.name });
    const { id, name, createdAt } = passkeyBodyOf(passkey);
    return { id, name, createdAt };
  }

  /** 200: request options for `navigator.credentials.get()` naming no user; the challenge cookie is set. */
  @Post('passkeys/login/options')
  @AuthRateLimit()
  @HttpCode(HttpStatus.OK)
  loginOptions(@AuthBody('empty') _body: object, @Res({ passthrough: true }) response: Response): Promise<PublicKeyCredentialRequestOptionsJSON> {
    return this.login.options(response);
  }

  /** 200: the credential, exactly as a password login answers (user body and session cookie, or token body and refresh cookie). */
  @Post('passkeys/login')
  @AuthRateLimit()
  @HttpCode(HttpStatus.OK)
  async signIn(@AuthBody('passkeyLogin') payload: { response: WebAuthnAssertionJson }, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object> {
    return this.completion.asJson(request, response, await this.login.login(payload.response, request, response));
  }

  /** 200: the user's passkeys, oldest first. */
  @Get('passkeys')
  @UseGuards(CurrentUserGuard)
  passkeys(@Req() request: Request): Promise<PasskeyBody[]> {
    return this.list.list(principalOf(request)!.user.id);
  }

  /** 200: the passkey renamed. */
  @Patch('passkeys/:id')
  @RestrictedWhileImpersonating()
  @UseGuards(CurrentUserGuard)
  rename(@Param('id') id: string, @AuthBody('passkeyName') payload: { name: string }, @Req() request: Request): Promise<PasskeyBody> {
    return this.list.rename(principalOf(request)!.user.id, id, payload.name);
  }

  /** 204; `svc.passkey.removed` after the response. */
  @Delete('passkeys/:id')
  @RestrictedWhileImpersonating()
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.NO_CONTENT)
  async remove(@Param('id') id: string, @Req() request: Request): Promise<void> {
    const { user, passkey } = await this.list.remove(principalOf(request)!.user.id, id);
    this.events.publishAfterResponse(request, AuthEvent.PasskeyRemoved, { user: this.serializer.serialize(user), passkeyId: passkey.id, name: passkey.name });
  }
}
