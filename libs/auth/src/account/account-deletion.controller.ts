import { Controller, Delete, HttpCode, HttpStatus, Inject, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { UserAdministration } from '../admin/user-administration.js';
import { CREDENTIAL_ISSUER } from '../credentials/credential.tokens.js';
import type { CredentialIssuer } from '../credentials/credential-issuer.js';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import { RequireFreshAuth } from '../credentials/require-fresh-auth.decorator.js';
import { AuthError } from '../errors/auth.error.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { SecurityNotices } from '../notices/security-notices.js';

/**
 * DELETE /me (docs/guides/account-security.md): the signed-in user deletes their own account. The
 * user row and every row of the library's that belongs to it go in one transaction, through the
 * same path as an administrator's delete (so the last active holder of `users:roles` is refused,
 * 409 `LAST_ADMIN`); the credential's cookie is cleared, and the former address gets the notice
 * `account_deleted` (OWASP ASVS 5.0 V6.3.7). Mounted under the prefix, for both credentials.
 */
@Controller()
export class AccountDeletionController {
  constructor(
    @Inject(CREDENTIAL_ISSUER) private readonly issuer: CredentialIssuer,
    private readonly administration: UserAdministration,
    private readonly notices: SecurityNotices,
  ) {}

  @SvcRoute({ summary: "Delete the signed-in user's account and every row of theirs; the credential's cookie is cleared", success: { description: 'Deleted, signed out' }, errors: ['LAST_ADMIN'] })
  @Delete('me')
  // What the account's end requires beyond a credential: not an administrator acting as the user (OWASP ASVS 5.0 V8.2.1).
  @RestrictedWhileImpersonating()
  // Ending the account or adding a way in needs a recent sign-in (OWASP ASVS 5.0 V7.5.1).
  @RequireFreshAuth()
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.NO_CONTENT)
  async deleteOwnAccount(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    const { user } = principalOf(request)!;
    try {
      // The user is their own actor: `svc.user.deleted` says `actorId` is the user's id.
      await this.administration.delete(user.id, { actorId: user.id, request });
    } catch (error) {
      // Deleted by another request since the credential was resolved: this credential names nobody now.
      if (error instanceof AuthError && error.code === 'NOT_FOUND') throw new AuthError('UNAUTHENTICATED');
      throw error;
    }
    this.issuer.clearCookie(response);
    // The row is gone; the notice goes to the address it had (OWASP ASVS 5.0 V6.3.7).
    this.notices.notify(request, user, 'account_deleted');
  }
}
