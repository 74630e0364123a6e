import { ConfigurableModuleBuilder, type Type } from '@nestjs/common';
import type { AuthOptions, ConfigShapeOptions } from './config/auth-options.js';
import type { AuthHooks } from './hooks/auth-hooks.js';

/** What shapes the module graph, so it is given synchronously to `forRoot` and `forRootAsync`. */
export interface AuthModuleExtras extends ConfigShapeOptions {
  /** An `@Injectable()` class implementing some of `AuthHooks`. */
  hooks?: Type<AuthHooks>;
  /**
   * Protects every route of the application (an `APP_GUARD`), except those marked `@Public()`;
   * `@OptionalAuth()` routes serve everyone. @default false
   */
  globalGuard?: boolean;
}

/**
 * `forRoot(options)` / `forRootAsync({ useFactory, inject, imports })`. The extras (credential,
 * login methods, optional parts, entities, hooks, prefix, globalGuard) shape the module graph, so they are always given synchronously.
 */
export const {
  ConfigurableModuleClass: ConfigurableAuthModule,
  MODULE_OPTIONS_TOKEN: AUTH_MODULE_OPTIONS,
  OPTIONS_TYPE: AUTH_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: AUTH_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<AuthOptions>({ moduleName: 'Auth' })
  .setClassMethodName('forRoot')
  .setExtras<AuthModuleExtras>({
    credential: undefined,
    login: undefined,
    strategy: undefined,
    features: undefined,
    prefix: undefined,
    entities: undefined,
    hooks: undefined,
    globalGuard: undefined,
    nativeClients: undefined,
  })
  .build();
