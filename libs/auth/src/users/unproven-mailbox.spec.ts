import { describe, expect, it } from '@jest/globals';
import type { AuthConfig } from '../config/auth-config.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { UnprovenMailbox } from './unproven-mailbox.js';

const VERIFICATION = { required: false, tokenTtlSeconds: 86_400, verifyPath: '/verify-email', confirmPath: '/confirm-email', cancelPath: '/cancel-email-change', sendsMail: true };
const mailbox = (emailVerification?: AuthConfig['emailVerification']) => new UnprovenMailbox({ emailVerification } as AuthConfig);
const user = (emailVerifiedAt: Date | null) => ({ id: 'u', emailVerifiedAt }) as SvcUser;
const codeOf = (run: () => void): string | null => {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof AuthError ? error.code : String(error);
  }
};

describe('UnprovenMailbox (docs/decisions/0022-account-pre-hijacking.md)', () => {
  it('refuses a new way in while the email is not verified, with verification on (required or not)', () => {
    expect(codeOf(() => mailbox(VERIFICATION).refuseNewWayIn(user(null)))).toBe('EMAIL_NOT_VERIFIED');
    expect(codeOf(() => mailbox({ ...VERIFICATION, required: true }).refuseNewWayIn(user(null)))).toBe('EMAIL_NOT_VERIFIED');
    expect(codeOf(() => mailbox(VERIFICATION).refuseNewWayIn(user(new Date())))).toBeNull();
  });

  it('refuses nothing without verification: there is no proof to wait for', () => {
    expect(codeOf(() => mailbox(undefined).refuseNewWayIn(user(null)))).toBeNull();
  });

  it('refuses, in the storing transaction, a way in begun before a proof that committed meanwhile, in every mode', () => {
    for (const section of [undefined, VERIFICATION]) {
      expect(codeOf(() => mailbox(section).refuseAfterReclaim(user(null), user(new Date())))).toBe('UNAUTHENTICATED');
    }
    expect(codeOf(() => mailbox(undefined).refuseAfterReclaim(user(null), user(null)))).toBeNull();
    expect(codeOf(() => mailbox(VERIFICATION).refuseAfterReclaim(user(new Date(0)), user(new Date(0))))).toBeNull();
  });
});
