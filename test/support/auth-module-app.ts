import type { DynamicModule, INestApplication, Provider } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { authEntities, authMigrations } from '#svc/auth';

/**
 * An application of `auth` as a developer's module would import it (the event emitter, TypeORM on
 * in-memory SQLite with svc's entities and migrations), initialised. For what one configuration
 * does at startup and which routes it serves; the scenario suites use createTestApp. If startup
 * fails the application is closed and the error thrown; otherwise the caller closes it.
 */
export async function startAuthModule(auth: DynamicModule, providers: Provider[] = []): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventEmitterModule.forRoot(), TypeOrmModule.forRoot({ type: 'better-sqlite3', database: ':memory:', entities: authEntities(), migrations: authMigrations, migrationsRun: true }), auth],
    providers,
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  try {
    await app.init();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}

/** Starts `auth` and closes it again: resolves if it starts, rejects with what stopped it. */
export async function bootAuthModule(auth: DynamicModule, providers: Provider[] = []): Promise<void> {
  const app = await startAuthModule(auth, providers);
  await app.close();
}
