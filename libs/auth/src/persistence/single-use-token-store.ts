import { randomUUID } from 'node:crypto';
import { type EntityManager, type FindOptionsWhere, IsNull, type QueryDeepPartialEntity } from 'typeorm';
import type { Clock } from '../config/clock.js';
import { hashToken, randomToken } from '../crypto/opaque-token.js';

/** The columns every table of single-use tokens has (`password_reset_tokens`, `email_tokens`; docs/decisions/0002-schema.md). */
export interface SingleUseToken {
  id: string;
  /** SHA-256 (hex) of the mailed token. */
  tokenHash: string;
  userId: string;
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: Date;
}

export interface IssuedToken {
  /** The raw token, for the mail only: the database keeps its SHA-256. */
  token: string;
  expiresAt: Date;
}

/** A row's own columns beyond the common ones (an email token's purpose, say). */
export type TokenFields<T extends SingleUseToken> = Partial<Omit<T, keyof SingleUseToken>>;

/**
 * One store of single-use tokens, over the entity of a flow's table: password recovery's
 * `password_reset_tokens` (docs/decisions/0014-password-recovery.md) and the email lifecycle's `email_tokens`
 * (docs/decisions/0015-email-verification-and-change-of-email.md). OWASP Forgot Password Cheat Sheet: 256
 * random bits, stored as SHA-256 and found by that hash, single use, expiring; ASVS 2.5. Every method
 * runs in the caller's transaction. A flow's store extends it with its rules (which rows a new token
 * supersedes, its lifetime).
 */
export class SingleUseTokenStore<T extends SingleUseToken> {
  constructor(
    private readonly entity: new () => T,
    protected readonly clock: Clock,
  ) {}

  /**
   * Stores a new token for the user, valid `ttlMs` from now, after deleting the rows `supersede`
   * names (the user's older tokens: only the newest link works); returns it for the mail only.
   */
  protected async issueToken(manager: EntityManager, userId: string, ttlMs: number, fields: TokenFields<T>, supersede: FindOptionsWhere<T> | null): Promise<IssuedToken> {
    if (supersede) await manager.delete(this.entity, supersede);
    const token = randomToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + ttlMs);
    const row = { ...fields, id: randomUUID(), tokenHash: hashToken(token), userId, expiresAt, usedAt: null, createdAt: now };
    await manager.insert(this.entity, row as unknown as QueryDeepPartialEntity<T>);
    return { token, expiresAt };
  }

  /**
   * Stores a new token when `userId` names an active user whose email is still `email` (the address
   * the mail goes to), in one INSERT ... SELECT: the same statement and the same work in this process
   * whether a row is written or not, so unknown and inactive emails cost what known ones do (OWASP
   * Forgot Password Cheat Sheet: consistent time). TypeORM's insert builder has no INSERT ... SELECT.
   */
  protected async issueTokenIfActive(manager: EntityManager, userEntity: Function, userId: string, email: string, ttlMs: number): Promise<IssuedToken | null> {
    const token = randomToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + ttlMs);
    const { connection } = manager;
    const { driver } = connection;
    const tokens = driver.escape(connection.getMetadata(this.entity).tableName);
    const users = driver.escape(connection.getMetadata(userEntity).tableName);
    const [sql, parameters] = driver.escapeQueryWithParameters(
      `INSERT INTO ${tokens} (id, token_hash, user_id, expires_at, created_at)
       SELECT :id, :tokenHash, owner.id, :expiresAt, :createdAt FROM ${users} owner
       WHERE owner.id = :userId AND owner.is_active = :active AND owner.email = :email
       RETURNING id`,
      { id: randomUUID(), tokenHash: hashToken(token), expiresAt, createdAt: now, userId, active: true, email },
    );
    const inserted: unknown[] = await manager.query(sql, parameters);
    return inserted.length === 1 ? { token, expiresAt } : null;
  }

  /** The row of a token that is neither used nor expired (and has the columns `where` gives), or null. */
  protected findUsableToken(manager: EntityManager, token: string, where: TokenFields<T> = {}): Promise<T | null> {
    const query = manager
      .createQueryBuilder(this.entity, 'token')
      .where('token.token_hash = :hash', { hash: hashToken(token) });
    const metadata = manager.connection.getMetadata(this.entity);
    for (const [property, value] of Object.entries(where)) {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new TypeError(`svc: ${metadata.name} has no column ${property}`);
      query.andWhere(`token.${column.databaseName} = :${property}`, { [property]: value });
    }
    return query
      .andWhere('token.used_at IS NULL')
      .andWhere('token.expires_at > :now', { now: this.clock.now() })
      .getOne();
  }

  /**
   * Marks the token used if it still is usable, in one conditional UPDATE: of concurrent uses
   * exactly one sees an affected row (PostgreSQL re-checks the WHERE after the row lock).
   */
  async consume(manager: EntityManager, id: string): Promise<boolean> {
    const now = this.clock.now();
    const result = await manager
      .createQueryBuilder()
      .update(this.entity)
      .set({ usedAt: now } as unknown as QueryDeepPartialEntity<T>)
      .where('id = :id', { id })
      .andWhere('used_at IS NULL')
      .andWhere('expires_at > :now', { now })
      .execute();
    return result.affected === 1;
  }

  /** Deletes the user's tokens, or only those not used yet, of those that have the columns `where` gives. */
  protected async discard(manager: EntityManager, userId: string, rows: { unusedOnly: boolean }, where: TokenFields<T> = {}): Promise<void> {
    await manager.delete(this.entity, { userId, ...(rows.unusedOnly ? { usedAt: IsNull() } : {}), ...where } as FindOptionsWhere<T>);
  }

  /** Deletes used and expired tokens (none of them can do anything any more); the caller commits. */
  async purgeExpired(manager: EntityManager): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(this.entity)
      .where('used_at IS NOT NULL OR expires_at <= :now', { now: this.clock.now() })
      .execute();
    return result.affected ?? 0;
  }
}
