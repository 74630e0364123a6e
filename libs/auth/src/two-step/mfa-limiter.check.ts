import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AUTH_CONFIG, SVC_LOGGER } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';

/**
 * TOTP without a limiter (docs/guides/two-step.md, Limits): without a `rateLimit` section the
 * second step is limited per challenge only, and every password login mints a new challenge, so
 * nothing bounds the guesses at a code an attacker who has the password can make. Said once at
 * startup, as a warning: the application may have a limiter of its own in front.
 */
@Injectable()
export class MfaLimiterCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger(SVC_LOGGER);

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  onApplicationBootstrap(): void {
    if (!this.config.mfa || this.config.rateLimit) return;
    // RFC 6238 §5.2, RFC 4226 §7.3: a verifier must bound the attempts at a code.
    this.logger.warn(
      'mfa is configured without a rateLimit section: /mfa/verify counts five attempts per challenge only, and each login with the password starts a new challenge, so guesses at a code are not limited per address or per account. Add a rateLimit section (docs/guides/rate-limiting.md), or make sure a limiter in front of the application covers /mfa/verify.',
    );
  }
}
