import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import {
  AuthEvent,
  type EmailChangeNoticeEvent,
  type EmailChangeRequestedEvent,
  type EmailVerificationRequestedEvent,
  type OrganizationInvitationMailEvent,
  type PasswordResetRequestedEvent,
  type SecurityNoticeEvent,
} from '#svc/auth';

/** Payload fields never printed: tokens (and the links that carry them) are for the mailer only (docs/guides/application.md). */
const HIDDEN = new Set(['token', 'link', 'providerAccessToken', 'providerRefreshToken']);

/**
 * The demo's development mailer and event log: one JSON object a line on standard output,
 * `EVENT {...}` for every svc event and `MAIL {...}` for each message svc asks to send: a password
 * reset, an email verification, a change of email's confirmation and its notices, a security notice.
 */
@Injectable()
export class DemoEventLog implements OnModuleDestroy {
  private readonly listener = (name: string | string[], payload: Record<string, unknown>) => this.print(String(name), payload);

  constructor(private readonly emitter: EventEmitter2) {
    emitter.onAny(this.listener);
  }

  onModuleDestroy(): void {
    this.emitter.offAny(this.listener);
  }

  private print(name: string, payload: Record<string, unknown>): void {
    if (!name.startsWith('svc.')) return;
    this.mail(name, payload);
    const shown = Object.fromEntries(Object.entries(payload).filter(([key]) => !HIDDEN.has(key)));
    this.write(`EVENT ${JSON.stringify({ name, payload: shown })}`);
  }

  /** One line to standard output. Tests that run the demo in their own process record the lines instead. */
  protected write(line: string): void {
    process.stdout.write(`${line}\n`);
  }

  /** The development mailer: one MAIL line per message, its link opening a page of the demo. */
  private mail(name: string, payload: Record<string, unknown>): void {
    const send = (message: { to: string; kind: string; link?: string; reason?: string; notice?: string }): void => {
      this.write(`MAIL ${JSON.stringify(message)}`);
    };
    switch (name) {
      case AuthEvent.PasswordResetRequested: {
        const event = payload as unknown as PasswordResetRequestedEvent;
        return send({ to: event.user.email, kind: 'password_reset', link: event.link });
      }
      case AuthEvent.EmailVerificationRequested: {
        const event = payload as unknown as EmailVerificationRequestedEvent;
        return send({ to: event.user.email, kind: 'email_verification', link: event.link });
      }
      case AuthEvent.EmailChangeRequested: {
        const event = payload as unknown as EmailChangeRequestedEvent;
        return send({ to: event.newEmail, kind: 'email_change', link: event.link });
      }
      case AuthEvent.EmailChangeNotice: {
        const event = payload as unknown as EmailChangeNoticeEvent;
        return send({ to: event.to, kind: 'email_change_notice', reason: event.reason, ...(event.link ? { link: event.link } : {}) });
      }
      case AuthEvent.SecurityNotice: {
        const event = payload as unknown as SecurityNoticeEvent;
        return send({ to: event.user.email, kind: 'security_notice', notice: event.notice });
      }
      case AuthEvent.OrganizationInvitationMail: {
        const event = payload as unknown as OrganizationInvitationMailEvent;
        return send({ to: event.to, kind: 'organization_invitation', link: event.link });
      }
    }
  }
}
