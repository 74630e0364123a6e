import { Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Request, Response } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import { RequireFreshAuth } from '../credentials/require-fresh-auth.decorator.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { emptyBody } from '../http/auth-body-schema.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { LoginCompletion } from '../login/login-completion.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { UnprovenMailbox } from '../users/unproven-mailbox.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import type { WebAuthnAssertionJson, WebAuthnRegistrationJson } from '../users/webauthn-response-rules.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { newWayInRefusals } from '../users/unproven-mailbox.js';
import { PasskeyList, type PasskeyBody, passkeyBodyOf } from './passkey-list.service.js';
import { PasskeyLogin } from './passkey-login.service.js';
import { PasskeyRegistration } from './passkey-registration.service.js';
import { SecurityNotices } from '../notices/security-notices.js';
import { passkeyLoginBody, passkeyNameBody, passkeyRegistrationBody } from './passkey.requests.js';

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
    private readonly notices: SecurityNotices,
  ) {}

  /** 200: creation options for `navigator.credentials.create()`; the challenge cookie is set. 403 before the email is verified. */
  @SvcRoute((config) => ({
    summary: 'Creation options for a new passkey of the signed-in user (navigator.credentials.create()); sets the challenge cookie',
    success: { description: 'PublicKeyCredentialCreationOptionsJSON', body: 'passkeyCreationOptions' },
    errors: newWayInRefusals(config),
  }))
  @Post('passkeys/register/options')
  @RestrictedWhileImpersonating()
  // Adding or removing a way in needs a recent sign-in (OWASP ASVS 5.0 V7.5.1).
  @RequireFreshAuth()
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.OK)
  registrationOptions(@AuthBody(emptyBody) _body: object, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const user = principalOf(request)!.user;
    this.mailbox.refuseNewWayIn(user);
    return this.registration.options(user, response);
  }

  /** 201 `{ id, name, createdAt }`; `svc.passkey.registered` after the response. */
  @SvcRoute((config) => ({
    summary: "Add the authenticator's new credential to the signed-in user's passkeys",
    success: { description: 'The passkey', body: 'passkey' },
    errors: [...newWayInRefusals(config), 'PASSKEY_INVALID'],
  }))
  @Post('passkeys/register')
  @RestrictedWhileImpersonating()
  // Adding or removing a way in needs a recent sign-in (OWASP ASVS 5.0 V7.5.1).
  @RequireFreshAuth()
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.CREATED)
  async register(
    @AuthBody(passkeyRegistrationBody) payload: { response: WebAuthnRegistrationJson; name?: string },
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Omit<PasskeyBody, 'lastUsedAt'>> {
    const user = principalOf(request)!.user;
    this.mailbox.refuseNewWayIn(user);
    const passkey = await this.registration.register(user, payload.response, payload.name ?? undefined, request, response);
    this.events.publishAfterResponse(request, AuthEvent.PasskeyRegistered, { user: this.serializer.serialize(user), passkeyId: passkey.id, name: passkey.name });
    this.notices.notify(request, user, 'passkey_added');
    const { id, name, createdAt } = passkeyBodyOf(passkey);
    return { id, name, createdAt };
  }

  /** 200: request options for `navigator.credentials.get()` naming no user; the challenge cookie is set. */
  @SvcRoute({
    summary: 'Request options for a passkey login (navigator.credentials.get()), naming no user; sets the challenge cookie',
    success: { description: 'PublicKeyCredentialRequestOptionsJSON', body: 'passkeyRequestOptions' },
  })
  @Post('passkeys/login/options')
  @AuthRateLimit()
  @HttpCode(HttpStatus.OK)
  loginOptions(@AuthBody(emptyBody) _body: object, @Res({ passthrough: true }) response: Response): Promise<PublicKeyCredentialRequestOptionsJSON> {
    return this.login.options(response);
  }

  /** 200: the credential, exactly as a password login answers (user body and session cookie, or token body and refresh cookie). */
  @SvcRoute({ summary: 'Sign in with a passkey: the credential, as a password login gives it', success: { description: 'Signed in', body: 'login' }, errors: ['PASSKEY_INVALID', 'USER_INACTIVE'] })
  @Post('passkeys/login')
  @AuthRateLimit()
  @HttpCode(HttpStatus.OK)
  async signIn(@AuthBody(passkeyLoginBody) payload: { response: WebAuthnAssertionJson }, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object> {
    return this.completion.asJson(request, response, await this.login.login(payload.response, request, response));
  }

  /** 200: the user's passkeys, oldest first. */
  @SvcRoute({ summary: "The signed-in user's passkeys, oldest first", success: { description: 'The passkeys', body: 'passkeys' } })
  @Get('passkeys')
  @UseGuards(CurrentUserGuard)
  passkeys(@Req() request: Request): Promise<PasskeyBody[]> {
    return this.list.list(principalOf(request)!.user.id);
  }

  /** 200: the passkey renamed. */
  @SvcRoute({ summary: "Rename one of the user's passkeys", success: { description: 'The passkey, renamed', body: 'passkey' }, pathParameters: { id: 'uuid' }, errors: ['NOT_FOUND'] })
  @Patch('passkeys/:id')
  @RestrictedWhileImpersonating()
  @UseGuards(CurrentUserGuard)
  rename(@Param('id') id: string, @AuthBody(passkeyNameBody) payload: { name: string }, @Req() request: Request): Promise<PasskeyBody> {
    return this.list.rename(principalOf(request)!.user.id, id, payload.name);
  }

  /** 204; `svc.passkey.removed` after the response. */
  @SvcRoute({ summary: "Remove one of the user's passkeys (never the only way in)", success: { description: 'Removed' }, pathParameters: { id: 'uuid' }, errors: ['NOT_FOUND', 'LAST_LOGIN_METHOD'] })
  @Delete('passkeys/:id')
  @RestrictedWhileImpersonating()
  // Adding or removing a way in needs a recent sign-in (OWASP ASVS 5.0 V7.5.1).
  @RequireFreshAuth()
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.NO_CONTENT)
  async remove(@Param('id') id: string, @Req() request: Request): Promise<void> {
    const { user, passkey } = await this.list.remove(principalOf(request)!.user.id, id, request);
    this.events.publishAfterResponse(request, AuthEvent.PasskeyRemoved, { user: this.serializer.serialize(user), passkeyId: passkey.id, name: passkey.name });
  }
}
