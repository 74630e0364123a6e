import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, type ExecutionContext, Get, type INestApplication, Module, UseGuards } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import request from 'supertest';
import { AuthModule, authEntities, authMigrations, CurrentUser, CurrentUserGuard, type UserBody } from '#svc/auth';

@Controller()
class ProjectsController {
  @Get('projects')
  @UseGuards(CurrentUserGuard)
  list(@CurrentUser() user: UserBody) {
    return { owner: user.email };
  }
}

@Module({
  imports: [
    EventEmitterModule.forRoot(),
    TypeOrmModule.forRoot({ type: 'better-sqlite3', database: ':memory:', entities: authEntities(), migrations: authMigrations, migrationsRun: true }),
    AuthModule.forRoot({ strategy: 'session', baseUrl: 'http://app.test', password: { sendsResetMail: false } }),
  ],
  controllers: [ProjectsController],
})
class AppModule {}

/** An application's own unit test replaces the guard and sets `request.user`, as with @nestjs/passport. */
describe('@CurrentUser() with CurrentUserGuard overridden by a test', () => {
  let app: INestApplication;
  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideGuard(CurrentUserGuard)
      .useValue({
        canActivate: (context: ExecutionContext) => {
          context.switchToHttp().getRequest().user = { id: 'c9b1f4a0-1d2e-4f3a-8b5c-6d7e8f9a0b1c', email: 'tester@x.io' };
          return true;
        },
      })
      .compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(() => app?.close());

  it('reads request.user', async () => {
    const response = await request(app.getHttpServer()).get('/projects');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ owner: 'tester@x.io' });
  });
});
