import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { AuthModuleExtras, AuthOptions } from './config/auth-options.js';

/**
 * `forRoot(options)` / `forRootAsync({ useFactory, inject, imports })`. The extras (strategy,
 * credential, entities, hooks, prefix, globalGuard) shape the module graph, so they are always given synchronously.
 */
export const {
  ConfigurableModuleClass: ConfigurableAuthModule,
  MODULE_OPTIONS_TOKEN: AUTH_MODULE_OPTIONS,
  OPTIONS_TYPE: AUTH_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: AUTH_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<AuthOptions>({ moduleName: 'Auth' })
  .setClassMethodName('forRoot')
  .setExtras<AuthModuleExtras>({
    strategy: undefined as unknown as AuthModuleExtras['strategy'],
    credential: undefined,
    prefix: undefined,
    entities: undefined,
    hooks: undefined,
    globalGuard: undefined,
  })
  .build();
