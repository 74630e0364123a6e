import type { FuzzTarget } from './fuzz-target.js';
import type { BodyEndpoint } from './request-bodies.js';

/**
 * A body each endpoint accepts, built from the seed account where one is needed: a property that
 * spoils one field of it knows that field alone decided the answer.
 */
export function validBody(target: FuzzTarget, endpoint: BodyEndpoint, freshEmail: string): Record<string, unknown> {
  switch (endpoint) {
    case 'signup':
      return { email: freshEmail, password: 'correct horse battery', displayName: 'Ada' };
    case 'login':
      return { email: target.seed.email, password: target.seed.password };
    case 'forgot-password':
      // An unknown address: accepting it writes nothing after the response, so the next case starts clean.
      return { email: 'nobody@fuzz.test' };
    case 'reset-password':
      return { token: target.seed.resetToken, password: 'a new password 1' };
  }
}

/** Whether the valid body of `endpoint` uses the seed account (a reset token; a login that, accepted, would add a session). */
export function validBodyUsesSeed(endpoint: BodyEndpoint): boolean {
  return endpoint === 'reset-password' || endpoint === 'login';
}
