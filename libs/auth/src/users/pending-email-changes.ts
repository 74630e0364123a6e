import { type EntityManager, In, IsNull } from 'typeorm';
import { EmailToken } from '../entities/email-token.entity.js';

/**
 * Voids every pending change of the user's email: its unused confirmation links and the cancel links
 * of their notices (docs/guides/email.md). Runs in the caller's transaction;
 * every recovery step calls it, so a change asked for with a stolen session dies with that session.
 */
export async function voidPendingEmailChanges(manager: EntityManager, userId: string): Promise<void> {
  // OWASP ASVS 5.0 V6: recovering the account spends what an attacker started before it.
  await manager.delete(EmailToken, { userId, usedAt: IsNull(), purpose: In(['change', 'cancel']) });
}
