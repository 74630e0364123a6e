import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { AuthEvent, type PasswordResetRequestedEvent } from '#svc/auth';
import { DEMO_CONFIG } from './demo.tokens.js';
import type { DemoConfig } from './demo-config.js';

/** Payload fields never printed: tokens are for the mailer only (README, "5. Observers"). */
const HIDDEN = new Set(['token', 'providerAccessToken', 'providerRefreshToken']);

/**
 * The demo's development mailer and event log: one JSON object a line on standard output,
 * `EVENT {...}` for every svc event and `MAIL {...}` for each password-reset message.
 */
@Injectable()
export class DemoEventLog implements OnModuleDestroy {
  private readonly listener = (name: string | string[], payload: Record<string, unknown>) => this.print(String(name), payload);

  constructor(
    private readonly emitter: EventEmitter2,
    @Inject(DEMO_CONFIG) private readonly config: DemoConfig,
  ) {
    emitter.onAny(this.listener);
  }

  onModuleDestroy(): void {
    this.emitter.offAny(this.listener);
  }

  private print(name: string, payload: Record<string, unknown>): void {
    if (!name.startsWith('svc.')) return;
    if (name === AuthEvent.PasswordResetRequested) this.mailResetLink(payload as unknown as PasswordResetRequestedEvent);
    const shown = Object.fromEntries(Object.entries(payload).filter(([key]) => !HIDDEN.has(key)));
    process.stdout.write(`EVENT ${JSON.stringify({ name, payload: shown })}\n`);
  }

  private mailResetLink(event: PasswordResetRequestedEvent): void {
    const link = `${this.config.baseUrl}/reset-password?token=${encodeURIComponent(event.token)}`;
    process.stdout.write(`MAIL ${JSON.stringify({ to: event.user.email, kind: 'password_reset', link })}\n`);
  }
}
