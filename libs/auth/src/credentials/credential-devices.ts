import type { EntityManager } from 'typeorm';

/** One place a user is signed in: a session row, or a refresh family of the jwt credential (docs/guides/devices.md). */
export interface Device {
  /** The session's id, or the family's (the access token's `sid`). */
  id: string;
  createdAt: Date;
  lastUsedAt: Date;
  /** At most 512 characters of the `User-Agent` that signed in, if it sent one. */
  userAgent: string | null;
}

/**
 * The credential's devices: the user's live sessions (session credential) or live refresh families
 * (jwt), for GET and DELETE /sessions. "Live" is what the credential would still accept: not revoked,
 * not expired, before its absolute end. Runs in the caller's transaction.
 */
export interface CredentialDevices {
  /** The user's live devices, newest first. */
  listOfUser(manager: EntityManager, userId: string): Promise<Device[]>;
  /**
   * Ends the user's live device `id`, so that its credential is refused at its next request; false
   * when the user has no such live device (another user's, an unknown id, one already ended).
   */
  revokeOfUser(manager: EntityManager, userId: string, id: string): Promise<boolean>;
}
