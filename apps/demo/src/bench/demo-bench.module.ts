import { type DynamicModule, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DEMO_CONFIG } from '../demo.tokens.js';
import type { DemoConfig } from '../demo-config.js';
import { DemoUser } from '../users/demo-user.entity.js';
import { BenchUsersController } from './bench-users.controller.js';
import { NaiveJwtController } from './naive-jwt.controller.js';
import { NaiveJwtStrategy } from './naive-jwt.strategy.js';

/**
 * Routes that exist only for `npm run bench` (imported with DEMO_BENCH_ROUTES=1 only):
 * `GET /bench/users/:id`, an unguarded user lookup, and `GET /bench/naive/me`, a documentation-style
 * passport-jwt guard, to compare svc's `GET /auth/me` with. Not mounted otherwise, so not even logged.
 */
@Module({})
export class DemoBenchModule {
  static register(config: DemoConfig): DynamicModule {
    return {
      module: DemoBenchModule,
      imports: [PassportModule, TypeOrmModule.forFeature([DemoUser])],
      controllers: [BenchUsersController, NaiveJwtController],
      providers: [{ provide: DEMO_CONFIG, useValue: config }, NaiveJwtStrategy],
    };
  }
}
