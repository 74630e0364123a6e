import { type DynamicModule, type InjectionToken, Module, type ModuleMetadata, type OptionalFactoryDependency } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { SVC_JWT_SETTINGS } from './svc-jwt.constants.js';
import { type SvcJwtOptions, svcJwtSettingsOf } from './svc-jwt.options.js';
import { SvcJwtStrategy } from './svc-jwt.strategy.js';

/** `SvcJwtModule.forRootAsync`: the options from a factory (a ConfigService, say). */
export interface SvcJwtAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  useFactory: (...args: never[]) => SvcJwtOptions | Promise<SvcJwtOptions>;
  inject?: (InjectionToken | OptionalFactoryDependency)[];
}

/**
 * For another Nest service, with no database of its own, that accepts svc's access tokens
 * (docs/guides/machine-access.md): registers the Passport strategy `svc-jwt`, so routes are guarded
 * with `@UseGuards(AuthGuard('svc-jwt'))` and read `request.user` (`SvcJwtUser`).
 */
@Module({})
export class SvcJwtModule {
  static forRoot(options: SvcJwtOptions): DynamicModule {
    const settings = svcJwtSettingsOf(options);
    return { module: SvcJwtModule, imports: [PassportModule], providers: [{ provide: SVC_JWT_SETTINGS, useValue: settings }, SvcJwtStrategy], exports: [SvcJwtStrategy] };
  }

  static forRootAsync(options: SvcJwtAsyncOptions): DynamicModule {
    return {
      module: SvcJwtModule,
      imports: [PassportModule, ...(options.imports ?? [])],
      providers: [
        { provide: SVC_JWT_SETTINGS, useFactory: async (...args: never[]) => svcJwtSettingsOf(await options.useFactory(...args)), inject: options.inject ?? [] },
        SvcJwtStrategy,
      ],
      exports: [SvcJwtStrategy],
    };
  }
}
