import { Inject, Injectable, Logger } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { withTimeLimit } from '../async/time-limit.js';
import { AUTH_CONFIG, SVC_LOGGER } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { describeError } from '../errors/describe-error.js';
import { inputColumnsSchema } from '../users/input-columns.js';
import { inputColumnsOf } from '../users/svc-columns.decorators.js';
import type { OAuthProviderClient, ProviderIdentity } from './oauth-provider-client.js';
import { providerCallMs, ProviderTimeLimit } from './provider-time-limit.js';

/**
 * The application's columns for a user a provider login creates (`mapProfileToColumns`), kept only
 * where they pass the rules signup applies to the same `@SvcInput()` columns. Whatever goes wrong is
 * the mapper's, not the login's: the value (or, for a mapper that throws or hangs, every value) is
 * left out and the field names are logged, never the values.
 */
@Injectable()
export class ProfileColumns {
  private readonly logger = new Logger(SVC_LOGGER);
  private readonly schema: Function;
  private readonly inputColumns: ReadonlySet<string>;

  constructor(
    @Inject(AUTH_CONFIG) config: AuthConfig,
    private readonly timeLimit: ProviderTimeLimit,
  ) {
    this.schema = inputColumnsSchema(config.userEntity);
    this.inputColumns = new Set(inputColumnsOf(config.userEntity));
  }

  async of(provider: OAuthProviderClient, identity: ProviderIdentity): Promise<Record<string, unknown>> {
    const mapper = provider.mapProfileToColumns;
    if (!mapper) return {};
    const where = `OAuth provider ${provider.name}, mapProfileToColumns`;
    let mapped: unknown;
    try {
      const ms = providerCallMs(this.timeLimit, provider.section) * 2;
      mapped = await withTimeLimit(() => mapper(identity.profile, identity.userInfo), ms, () => new Error('no answer in time'));
    } catch (error) {
      this.logger.warn(`${where}: ${describeError(error)}; the user is created without its columns`);
      return {};
    }
    if (mapped === null || typeof mapped !== 'object' || Array.isArray(mapped)) {
      this.logger.warn(`${where} did not return an object; the user is created without its columns`);
      return {};
    }
    const given = Object.entries(mapped).filter(([, value]) => value !== undefined);
    const unknown = given.filter(([name]) => !this.inputColumns.has(name)).map(([name]) => name);
    const candidate = Object.fromEntries(given.filter(([name]) => this.inputColumns.has(name)));
    const errors = await validate(plainToInstance(this.schema as never, candidate) as object, { skipMissingProperties: true, validationError: { target: false, value: false } });
    const broken = errors.map((error) => error.property);
    const left = [...unknown, ...broken];
    if (left.length > 0) this.logger.warn(`${where}: ${left.map((name) => JSON.stringify(name)).join(', ')} left out (not an @SvcInput() column, or its value breaks the column's rules)`);
    return Object.fromEntries(Object.entries(candidate).filter(([name]) => !broken.includes(name)));
  }
}
