import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AuditLog } from '../audit-log/audit-log.js';
import type { Passkey } from '../entities/passkey.entity.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { WaysIn } from '../users/ways-in.js';
import { PasskeyStore } from './passkey.store.js';

/** A passkey as its owner sees it in GET /passkeys. */
export interface PasskeyBody {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export function passkeyBodyOf(passkey: Passkey): PasskeyBody {
  return { id: passkey.id, name: passkey.name, createdAt: passkey.createdAt.toISOString(), lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null };
}

/** The signed-in user's passkeys: listed, renamed, removed (docs/guides/passkeys.md). */
@Injectable()
export class PasskeyList {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly passkeys: PasskeyStore,
    private readonly waysIn: WaysIn,
    private readonly audit: AuditLog,
  ) {}

  /** Oldest first. */
  list(userId: string): Promise<PasskeyBody[]> {
    return this.unitOfWork.autocommit(async (manager) => (await this.passkeys.findOfUser(manager, userId)).map(passkeyBodyOf));
  }

  /** 404 NOT_FOUND for an id that is not one of the user's passkeys. */
  rename(userId: string, id: string, name: string): Promise<PasskeyBody> {
    return this.unitOfWork.transaction(async (manager) => {
      const passkey = await this.passkeys.findOwn(manager, userId, id);
      if (!passkey) throw new AuthError('NOT_FOUND', { message: 'No such passkey' });
      await this.passkeys.rename(manager, passkey.id, name);
      return passkeyBodyOf({ ...passkey, name });
    });
  }

  /**
   * Removes one of the user's passkeys: 404 NOT_FOUND when it is none of theirs, 409
   * LAST_LOGIN_METHOD when it is their only way in (counted by `WaysIn` under the user's row lock,
   * as unlinking an identity is).
   */
  remove(userId: string, id: string, request?: Request): Promise<{ user: SvcUser; passkey: Passkey }> {
    return this.unitOfWork.transaction(async (manager) => {
      const locked = await this.waysIn.lockAndCount(manager, userId);
      if (!locked) throw new AuthError('UNAUTHENTICATED');
      const passkey = await this.passkeys.findOwn(manager, userId, id);
      if (!passkey) throw new AuthError('NOT_FOUND', { message: 'No such passkey' });
      if (locked.count <= 1) throw new AuthError('LAST_LOGIN_METHOD');
      await this.passkeys.delete(manager, passkey.id);
      await this.audit.record(manager, { action: 'passkey_removed', userId, request, details: { passkeyId: passkey.id, name: passkey.name } });
      return { user: locked.user, passkey };
    });
  }
}
