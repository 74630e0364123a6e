import { EventEmitterModule } from '@nestjs/event-emitter';
import { Injectable, Module, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { AuthConfigError, AuthEvent, AuthModule, authEntities, authMigrations, type AuthOptions, OnAuthEvent } from '#svc/auth';
import { bootAuthModule } from '../support/auth-module-app.js';
import { BASE_URL, TEST_SECRET } from '../support/test-app.js';

@Entity('users')
class IncompleteUser {
  @PrimaryColumn()
  id: string;

  @Column()
  email: string;
}

async function start(options: Partial<AuthOptions>, strategy: 'session' = 'session'): Promise<void> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      TypeOrmModule.forRoot({ type: 'better-sqlite3', database: ':memory:', entities: authEntities(), migrations: authMigrations, migrationsRun: true }),
      // These applications send no reset mail (docs/guides/application.md: nothing silently dropped).
      AuthModule.forRoot({ strategy, baseUrl: BASE_URL, ...options, password: { sendsResetMail: false, ...options.password } } as never),
    ],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  try {
    await app.init();
  } finally {
    await app.close();
  }
}

describe('startup checks', () => {
  it('a user entity lacking required attributes is a TypeError listing them (docs/decisions/0001-module-shape.md)', () => {
    expect(() => AuthModule.forRoot({ strategy: 'session', baseUrl: BASE_URL, entities: { user: IncompleteUser as never } })).toThrow(
      new TypeError('IncompleteUser lacks the attributes svc needs: emailSkeleton, emailVerifiedAt, passwordHash, isActive, mfaTotpEnabled, createdAt, updatedAt'),
    );
  });

  it('refuses a configuration error at startup with the field and the rule', async () => {
    const cases: [Partial<AuthOptions>, string][] = [
      [{ session: { expireDays: 31 } }, 'session.expireDays must be between 1 and 30 (got 31)'],
      [{ session: { expireDays: 0 } }, 'session.expireDays must be between 1 and 30 (got 0)'],
      [{ password: { minLength: 6 } }, 'password.minLength must be between 8 and 72 (got 6)'],
      [{ password: { maxLength: 100 } }, 'password.maxLength must be between 8 and 72 (got 100)'],
      [{ password: { bcryptCost: 9 } }, 'password.bcryptCost must be between 10 and 15 (got 9)'],
      [{ baseUrl: 'not a url' }, 'baseUrl must be an absolute URL (got "not a url")'],
      [{ cookie: { sameSite: 'none', secure: false } }, 'cookie.sameSite none requires cookie.secure true'],
      [{ trustedOrigins: ['https://ok.test/path'] }, 'trustedOrigins[0] must be an origin (scheme://host[:port]) (got "https://ok.test/path")'],
      [{ rateLimit: { redisKeyPrefix: '{app}:' } }, 'rateLimit.redisKeyPrefix must not hold "{" or "}": Redis Cluster would read them as a hash tag and put every counter in one slot (got "{app}:")'],
    ];
    for (const [options, message] of cases) {
      await expect(start(options)).rejects.toThrow(new AuthConfigError(message.split(' ')[0], message.slice(message.indexOf(' ') + 1)));
    }
  });

  it('forRootAsync takes the values from a factory, validates them, and honours a custom prefix', async () => {
    const build = (expireDays: number) =>
      Test.createTestingModule({
        imports: [
          EventEmitterModule.forRoot(),
          TypeOrmModule.forRoot({ type: 'better-sqlite3', database: ':memory:', entities: authEntities(), migrations: authMigrations, migrationsRun: true }),
          AuthModule.forRootAsync({
            strategy: 'session',
            prefix: '/account',
            useFactory: async () => ({ baseUrl: BASE_URL, session: { expireDays }, password: { bcryptCost: 10, sendsResetMail: false } }),
          }),
        ],
      }).compile();
    await expect(build(45)).rejects.toThrow(new AuthConfigError('session.expireDays', 'must be between 1 and 30', 45));

    const app = (await build(2)).createNestApplication({ logger: false });
    await app.init();
    try {
      const response = await request(app.getHttpServer()).post('/account/signup').send({ email: 'a@x.io', password: 'correct horse' });
      expect(response.status).toBe(201);
      expect(response.headers['set-cookie'][0]).toContain('Max-Age=172800');
      expect((await request(app.getHttpServer()).post('/auth/signup').send({})).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('refuses an invalid prefix while building the module', () => {
    expect(() => AuthModule.forRoot({ strategy: 'session', prefix: 'auth', baseUrl: BASE_URL })).toThrow(AuthConfigError);
  });
});

describe('a missing EventEmitterModule', () => {
  it('stops the application at startup with a message saying what to import', async () => {
    @Module({
      imports: [
        TypeOrmModule.forRoot({ type: 'better-sqlite3', database: ':memory:', entities: authEntities(), migrations: authMigrations, migrationsRun: true }),
        AuthModule.forRoot({ strategy: 'session', baseUrl: 'http://app.test', password: { sendsResetMail: false } }),
      ],
    })
    class NoEmitterModule {}
    const moduleRef = await Test.createTestingModule({ imports: [NoEmitterModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await expect(app.init()).rejects.toThrow('add EventEmitterModule.forRoot() to the imports of your application module');
    await app.close();
  });
});

describe('nothing silently dropped: the reset mail needs an observer', () => {
  @Injectable()
  class ResetMailer {
    @OnAuthEvent(AuthEvent.PasswordResetRequested)
    send(): void {}
  }

  const boot = (options: Partial<AuthOptions>, providers: Type[] = []) => bootAuthModule(AuthModule.forRoot({ baseUrl: BASE_URL, ...options }), providers);

  it('stops a password application without an observer of svc.password.reset_requested, naming the event', async () => {
    await expect(boot({ password: {} })).rejects.toThrow(
      new AuthConfigError(
        'password.sendsResetMail',
        'is true, but nothing observes svc.password.reset_requested: add an observer that mails the reset link (@OnAuthEvent(AuthEvent.PasswordResetRequested)), or set password.sendsResetMail: false if the application sends no such mail',
      ),
    );
  });

  it('starts with an observer method, or when the application says it sends no such mail, or without the password method', async () => {
    await boot({ password: {} }, [ResetMailer]);
    await boot({ password: { sendsResetMail: false } });
    await boot({ secret: TEST_SECRET, oidc: { providers: [{ name: 'op', issuer: 'https://op.example', clientId: 'c', clientSecret: 'GOCSPX-q8Vz3kR1xN7pL2mW9tY4bH6c' }] } });
  });
});
