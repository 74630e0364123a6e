import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { AUTH_CONFIG, SVC_LOGGER } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { MailMessage } from '../config/mail-options.js';
import { describeError } from '../errors/describe-error.js';
import { MAIL_KINDS, type MailKindDefinition } from './mail-kinds.js';

type MailSettings = NonNullable<AuthConfig['mail']>;

/**
 * With the `mail` section, svc's own observer of every event that carries a message
 * (docs/guides/account-security.md): it renders the message (the application's template for the
 * kind, else svc's) and hands it to the transport. Events go out after the change committed and
 * after the response, so a transport that fails or hangs never fails or delays a request; the
 * failure is logged to `svc` with the user's id, never the link, its token or the address (OWASP
 * Logging Cheat Sheet). Being an observer, it satisfies the startup check of the mails the events ask for.
 */
@Injectable()
export class MailSender implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SVC_LOGGER);
  private readonly listeners: [string, (payload: unknown) => Promise<void>][] = [];

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Optional() private readonly emitter?: EventEmitter2,
  ) {}

  onModuleInit(): void {
    const mail = this.config.mail;
    if (!mail || !this.emitter) return;
    for (const definition of MAIL_KINDS) {
      const listener = (payload: unknown) => this.send(mail, definition, payload);
      this.emitter.on(definition.event, listener);
      this.listeners.push([definition.event, listener]);
    }
  }

  onModuleDestroy(): void {
    for (const [event, listener] of this.listeners.splice(0)) this.emitter?.off(event, listener);
  }

  private async send(mail: MailSettings, definition: MailKindDefinition, payload: unknown): Promise<void> {
    const fields = definition.messageOf(payload as never);
    const message: MailMessage = { kind: definition.kind, accountLink: mail.links.account, ...fields };
    // The link, its token and the address are masked even when the mail server's error quotes them.
    const secrets = [fields.link, (payload as { token?: unknown }).token, message.to].filter((value): value is string => typeof value === 'string');
    try {
      const template = mail.templates[definition.kind] ?? definition.template;
      const { subject, text, html } = template(message);
      await mail.transport.sendMail({ from: mail.from, to: message.to, subject, text, html });
    } catch (error) {
      this.logger.error(`mail ${definition.kind} ${message.user ? `to user ${message.user.id}` : 'to an invited address'} not sent: ${describeError(error, secrets)}`);
    }
  }
}
