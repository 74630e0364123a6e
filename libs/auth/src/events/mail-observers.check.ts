import { Inject, Injectable, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { EVENT_LISTENER_METADATA, EventEmitter2 } from '@nestjs/event-emitter';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthConfigError } from '../config/auth-config.error.js';
import { AuthEvent, type AuthEventName } from './auth-events.js';
import { isRecordsOnly } from './records-only.js';

/** The events of `emailVerification` that carry a message to mail, and what it is. */
const EMAIL_MESSAGES: readonly [AuthEventName, string][] = [
  [AuthEvent.EmailVerificationRequested, 'the verification link'],
  [AuthEvent.EmailChangeRequested, 'the confirmation link to the new address'],
  [AuthEvent.EmailChangeNotice, 'the notice of a change of email'],
];

function eventKey(name: AuthEventName): string {
  return Object.entries(AuthEvent).find(([, value]) => value === name)![0];
}

/**
 * Nothing silently dropped (docs/guides/application.md): an event that carries a message the
 * application must send (a reset link; with `emailVerification`, a verification link, a change of
 * email's confirmation and notice) needs an observer, or the user waits for a mail that never
 * comes. At startup, an observer is a method marked `@OnAuthEvent`/`@OnEvent` for the event on any
 * provider or controller (read from their metadata, so the order in which modules start does not
 * matter), or a listener already on the emitter (`on`, `onAny`; svc/testing's recorder is none).
 * With the `mail` section svc's own sender listens to every one of them, so the check is met. A
 * security notice needs no observer: it tells of a change, it carries nothing the user waits for.
 */
@Injectable()
export class MailObserversCheck implements OnApplicationBootstrap {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly modules: ModulesContainer,
    @Optional() private readonly emitter?: EventEmitter2,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.organizations?.sendsInvitationMail && !this.observed(AuthEvent.OrganizationInvitationMail)) {
      throw new AuthConfigError(
        'organizations.sendsInvitationMail',
        `is true, but nothing observes ${AuthEvent.OrganizationInvitationMail}: add an observer that mails the invitation link (@OnAuthEvent(AuthEvent.OrganizationInvitationMail)), or set organizations.sendsInvitationMail: false if the application sends no such mail`,
      );
    }
    if (!this.config.loginMethods.includes('password')) return;
    if (this.config.password.sendsResetMail && !this.observed(AuthEvent.PasswordResetRequested)) {
      throw new AuthConfigError(
        'password.sendsResetMail',
        `is true, but nothing observes ${AuthEvent.PasswordResetRequested}: add an observer that mails the reset link (@OnAuthEvent(AuthEvent.PasswordResetRequested)), or set password.sendsResetMail: false if the application sends no such mail`,
      );
    }
    if (!this.config.emailVerification?.sendsMail) return;
    // The verification link, the change confirmation, and the notice that tells the old address (OWASP Authentication Cheat Sheet).
    for (const [event, what] of EMAIL_MESSAGES) {
      if (this.observed(event)) continue;
      throw new AuthConfigError(
        'emailVerification.sendsMail',
        `is true, but nothing observes ${event}: add an observer that mails ${what} (@OnAuthEvent(AuthEvent.${eventKey(event)})), or set emailVerification.sendsMail: false if the application sends no such mail`,
      );
    }
  }

  private observed(name: AuthEventName): boolean {
    if (this.emitter && (this.emitter.listenerCount(name) > 0 || this.emitter.listenersAny().some((listener) => !isRecordsOnly(listener)))) return true;
    for (const module of this.modules.values()) {
      for (const wrapper of [...module.providers.values(), ...module.controllers.values()]) {
        const type = wrapper.metatype as { prototype?: object } | null;
        if (!type?.prototype || wrapper.isAlias) continue;
        for (const key of Object.getOwnPropertyNames(type.prototype)) {
          const method = Object.getOwnPropertyDescriptor(type.prototype, key)?.value;
          const listens = typeof method === 'function' ? ((Reflect.getMetadata(EVENT_LISTENER_METADATA, method) ?? []) as { event: unknown }[]) : [];
          if (listens.some(({ event }) => event === name || (Array.isArray(event) && event.includes(name)))) return true;
        }
      }
    }
    return false;
  }
}
