import { Inject, Injectable } from '@nestjs/common';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';

/**
 * RFC 6238 with the parameters every authenticator app reads from an otpauth URL: HMAC-SHA-1,
 * 6 digits, 30-second steps (docs/guides/two-step.md: why these).
 */
const TOTP_PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** RFC 6238 §5.2: one step either side, for a clock that drifts and a code typed as it changes. */
const WINDOW = 1;
/** RFC 4226 §4 R6: a shared secret of 160 bits. */
const SECRET_BYTES = 20;
/** Six characters that no step's code can equal: the work of a check with nothing to match. */
export const NO_CODE = '------';

/** Authenticator codes through `otpauth`: new secrets, their otpauth URL and QR code, and the check of a code. */
@Injectable()
export class TotpCodes {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  newSecret(): Buffer {
    return Buffer.from(new Secret({ size: SECRET_BYTES }).bytes);
  }

  /** What the user types into an app without a camera: RFC 4648 base32, as otpauth URLs carry it. */
  base32Of(secret: Uint8Array): string {
    return this.secretOf(secret).base32;
  }

  /** `otpauth://totp/<issuer>:<account>?secret=...&issuer=...&algorithm=SHA1&digits=6&period=30` */
  otpauthUrl(secret: Uint8Array, account: string): string {
    return new TOTP({ issuer: this.config.mfa!.issuer, label: account, secret: this.secretOf(secret), ...TOTP_PARAMETERS }).toString();
  }

  qrSvg(otpauthUrl: string): Promise<string> {
    return QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  }

  /** The RFC 6238 time step (T) at `at`. */
  stepAt(at: Date): number {
    return TOTP.counter({ period: TOTP_PARAMETERS.period, timestamp: at.getTime() });
  }

  /**
   * The step within ±1 of `at` whose code `code` is, or null. The comparison is in constant time
   * (otpauth compares with `timingSafeEqual`); a code of no step costs the three HMACs every miss costs.
   */
  matchingStep(secret: Uint8Array, code: string, at: Date): number | null {
    const delta = TOTP.validate({ token: code, secret: this.secretOf(secret), ...TOTP_PARAMETERS, timestamp: at.getTime(), window: WINDOW });
    return delta === null ? null : this.stepAt(at) + delta;
  }

  private secretOf(secret: Uint8Array): Secret {
    return new Secret({ buffer: Uint8Array.from(secret).buffer });
  }
}
