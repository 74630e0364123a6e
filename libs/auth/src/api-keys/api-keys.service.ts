import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { grantsPermission, permissionsOfRoles } from '../config/authorization-policy.js';
import type { Clock } from '../config/clock.js';
import type { ApiKey } from '../entities/api-key.entity.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent, type ApiKeyFacts } from '../events/auth-events.js';
import { AuditLog } from '../audit-log/audit-log.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { SecurityNotices } from '../notices/security-notices.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { rolesOf } from '../users/user-roles.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { UserStore } from '../users/user-store.js';
import { mintApiKey } from './api-key-token.js';
import { ApiKeyStore } from './api-key.store.js';

const DAY_MS = 86_400_000;

/** A key in the user's list: never the key, never its hash. */
export interface ApiKeyBody extends ApiKeyFacts {
  lastUsedAt: Date | null;
  start: string;
}

/** A key as POST /api-keys answers, the one time the key is shown. */
export interface CreatedApiKeyBody extends ApiKeyFacts {
  key: string;
}

/** What a user does with their API keys (docs/guides/machine-access.md): create, list, revoke. */
@Injectable()
export class ApiKeys {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly store: ApiKeyStore,
    private readonly users: UserStore,
    private readonly serializer: UserSerializer,
    private readonly events: AuthEventPublisher,
    private readonly notices: SecurityNotices,
    private readonly audit: AuditLog,
  ) {}

  /**
   * A new key for `user`: its scopes among the user's permissions (400 `API_KEY_SCOPE_INVALID`), at
   * most `maxPerUser` live keys (409 `API_KEY_LIMIT`). The user's row is locked while the live keys
   * are counted and the new one inserted, so concurrent creations cannot pass the limit together.
   */
  async create(user: SvcUser, input: { name: string; scopes?: string[] | null; expiresInDays?: number | null }, request: Request): Promise<CreatedApiKeyBody> {
    const scopes = this.checkedScopes(user, input.scopes ?? []);
    const createdAt = this.clock.now();
    const expiresAt = input.expiresInDays ? new Date(createdAt.getTime() + input.expiresInDays * DAY_MS) : null;
    const minted = mintApiKey(this.config.apiKeys!.prefix);
    const key = await this.unitOfWork.transaction(async (manager) => {
      if (!(await this.users.lockById(manager, user.id))) throw new AuthError('UNAUTHENTICATED');
      if ((await this.store.countLive(manager, user.id, createdAt)) >= this.config.apiKeys!.maxPerUser) throw new AuthError('API_KEY_LIMIT');
      const row = await this.store.insert(manager, user.id, minted, { name: input.name, scopes, createdAt, expiresAt });
      await this.audit.record(manager, { action: 'api_key_created', userId: user.id, request, details: { id: row.id, name: row.name } });
      return row;
    });
    this.events.publishAfterResponse(request, AuthEvent.ApiKeyCreated, { user: this.serializer.serialize(user), apiKey: factsOf(key) });
    // OWASP ASVS 5.0 V6.3.7: a new way into the account is told to its owner.
    this.notices.notify(request, user, 'api_key_created');
    return { ...factsOf(key), key: minted.key };
  }

  /** The user's keys, newest first (revoked ones are gone from the list). */
  async list(userId: string): Promise<ApiKeyBody[]> {
    const keys = await this.unitOfWork.autocommit((manager) => this.store.listOf(manager, userId));
    return keys.map((key) => ({ ...factsOf(key), lastUsedAt: key.lastUsedAt, start: key.start }));
  }

  /** Revokes one of the user's keys: refused from the next request on, everywhere (nothing caches a key). 404 for another user's or an unknown one. */
  async revoke(user: SvcUser, id: string, request: Request): Promise<void> {
    const key = await this.unitOfWork.transaction(async (manager) => {
      const found = await this.store.findOwned(manager, user.id, id);
      if (!found) throw new AuthError('NOT_FOUND', { message: 'No such API key' });
      await this.store.revoke(manager, found, this.clock.now());
      await this.audit.record(manager, { action: 'api_key_revoked', userId: user.id, request, details: { id: found.id, name: found.name } });
      return found;
    });
    this.events.publishAfterResponse(request, AuthEvent.ApiKeyRevoked, { user: this.serializer.serialize(user), apiKey: factsOf(key) });
  }

  /** The scopes, sorted and once each, if the user's permissions grant each one (a `<resource>:*` permission grants its actions). */
  private checkedScopes(user: SvcUser, scopes: string[]): string[] {
    const policy = this.config.authorization;
    const held = policy ? permissionsOfRoles(policy, rolesOf(user) ?? []) : [];
    // OWASP ASVS 5.0 V8.2.1: a key never holds more than its owner.
    if (!scopes.every((scope) => grantsPermission(held, scope))) throw new AuthError('API_KEY_SCOPE_INVALID');
    return [...new Set(scopes)].sort();
  }
}

function factsOf(key: ApiKey): ApiKeyFacts {
  return { id: key.id, name: key.name, scopes: [...key.scopes], createdAt: key.createdAt, expiresAt: key.expiresAt };
}
