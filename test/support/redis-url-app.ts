// An application in its own process whose Redis svc opens from `{ url }`: it starts, makes
// requests that reach Redis, prints "closed" once `app.close()` has resolved, and must then exit
// by itself (nothing of svc's left open). Args: <rateLimit|principalCache> <redis url> <key prefix or channel>
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule, authEntities, authMigrations, type AuthOptions } from '#svc/auth';

const [section, url, name] = process.argv.slice(2);
const BASE_URL = 'http://app.test';
const redisOptions: Partial<AuthOptions> =
  section === 'rateLimit' ? { rateLimit: { backend: 'redis', redis: { url }, redisKeyPrefix: name } } : { principalCache: { redis: { url }, channel: name } };

@Module({
  imports: [
    EventEmitterModule.forRoot(),
    TypeOrmModule.forRoot({ type: 'better-sqlite3', database: ':memory:', entities: authEntities(), migrations: authMigrations, migrationsRun: true }),
    AuthModule.forRoot({
      strategy: 'session',
      baseUrl: BASE_URL,
      secret: 'q8Vz3kR1xN7pL2mW9tY4bH6cJ0fG5dSa',
      password: { bcryptCost: 10, sendsResetMail: false },
      ...redisOptions,
    } as AuthOptions & { strategy: 'session' }),
  ],
})
class RedisUrlApp {}

const app = await NestFactory.create(RedisUrlApp, { logger: ['error'] });
await app.listen(0, '127.0.0.1');
const base = await app.getUrl();
const json = { 'Content-Type': 'application/json', Origin: BASE_URL };
const credentials = JSON.stringify({ email: 'ada@example.com', password: 'correct horse battery' });
const statuses: number[] = [];
// rateLimit: the signup is counted in Redis; principalCache: /me fills the cache, logout publishes its invalidation.
const signup = await fetch(`${base}/auth/signup`, { method: 'POST', headers: json, body: credentials });
statuses.push(signup.status);
const cookie = signup.headers.getSetCookie()[0]?.split(';')[0] ?? '';
statuses.push((await fetch(`${base}/auth/me`, { headers: { Cookie: cookie } })).status);
statuses.push((await fetch(`${base}/auth/logout`, { method: 'POST', headers: { ...json, Cookie: cookie } })).status);
await app.close();
process.stdout.write(`${JSON.stringify({ statuses })}\nclosed\n`);
