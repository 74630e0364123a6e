import { Inject, Injectable, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { EVENT_LISTENER_METADATA, EventEmitter2 } from '@nestjs/event-emitter';
import { AUTH_CONFIG } from '../auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthConfigError } from '../config/auth-config.error.js';
import { AuthEvent, type AuthEventName } from './auth-events.js';

/**
 * Nothing silently dropped (README, "5. Observers"): an event that carries a message the
 * application must send (a reset link) needs an observer, or the user waits for a mail that never
 * comes. At startup, an observer is a method marked `@OnAuthEvent`/`@OnEvent` for the event on any
 * provider or controller (read from their metadata, so the order in which modules start does not
 * matter), or a listener already on the emitter (`on`, `onAny`).
 */
@Injectable()
export class MailObserversCheck implements OnApplicationBootstrap {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly modules: ModulesContainer,
    @Optional() private readonly emitter?: EventEmitter2,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.loginMethods.includes('password') || !this.config.password.sendsResetMail) return;
    if (!this.observed(AuthEvent.PasswordResetRequested)) {
      throw new AuthConfigError(
        'password.sendsResetMail',
        `is true, but nothing observes ${AuthEvent.PasswordResetRequested}: add an observer that mails the reset link (@OnAuthEvent(AuthEvent.PasswordResetRequested)), or set password.sendsResetMail: false if the application sends no such mail`,
      );
    }
  }

  private observed(name: AuthEventName): boolean {
    if (this.emitter && (this.emitter.listenerCount(name) > 0 || this.emitter.listenersAny().length > 0)) return true;
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
