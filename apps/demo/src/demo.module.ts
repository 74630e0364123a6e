import { type DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule, authEntities, authMigrations, type AuthOptions } from '#svc/auth';
import { DemoAdminController } from './demo-admin.controller.js';
import { DemoOrganizationsController } from './demo-organizations.controller.js';
import { DemoController } from './demo.controller.js';
import { demoAuthOptions } from './demo-auth-options.js';
import { DemoEventLog } from './demo-event-log.js';
import { DemoPageController } from './page/demo-page.controller.js';
import { DEMO_CONFIG } from './demo.tokens.js';
import type { DemoConfig } from './demo-config.js';
import { DemoUserColumns1763700000001 } from './migrations/1763700000001-demo-user-columns.js';
import { DemoUser } from './users/demo-user.entity.js';

/** The demo application: svc on an embedded SQLite file or PostgreSQL, configured from the environment. */
/**
 * WAL lets readers go on while a write commits, and `synchronous = NORMAL` stops each commit from
 * waiting for fsync (a crash may lose the last commits, never corrupt the file): the database rate
 * limiter commits a counter at every limited request (docs/guides/rate-limiting.md).
 */
const sqliteFileSettings = { enableWAL: true, prepareDatabase: (db: { pragma(sql: string): unknown }): void => void db.pragma('synchronous = NORMAL') };

@Module({})
export class DemoModule {
  /**
   * `extra`: options over the demo's own, for the bench app's variants (another roles policy, or
   * none: `{ authorization: undefined, admin: undefined }`, and then no route behind a role).
   */
  static register(config: DemoConfig, extra: Partial<AuthOptions> = {}): DynamicModule {
    const options = { ...demoAuthOptions(config), ...extra };
    return {
      module: DemoModule,
      imports: [
        EventEmitterModule.forRoot(),
        TypeOrmModule.forRoot({
          ...config.database,
          ...(config.database.type === 'better-sqlite3' && config.database.database !== ':memory:' ? sqliteFileSettings : {}),
          entities: authEntities(DemoUser),
          // Migrations, not synchronize: the schema is versioned and never altered behind your back.
          migrations: [...authMigrations, DemoUserColumns1763700000001],
          migrationsRun: true,
          logging: false,
        }),
        AuthModule.forRoot(options),
      ],
      controllers: [DemoController, ...(options.authorization ? [DemoAdminController] : []), ...(options.organizations ? [DemoOrganizationsController] : []), DemoPageController],
      providers: [{ provide: DEMO_CONFIG, useValue: config }, DemoEventLog],
    };
  }
}
