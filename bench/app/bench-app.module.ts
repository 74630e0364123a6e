import { type DynamicModule, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DemoModule } from '../../apps/demo/src/demo.module.js';
import { DEMO_CONFIG } from '../../apps/demo/src/demo.tokens.js';
import type { DemoConfig } from '../../apps/demo/src/demo-config.js';
import { DemoUser } from '../../apps/demo/src/users/demo-user.entity.js';
import { BenchUsersController } from './bench-users.controller.js';
import { NaiveJwtController } from './naive-jwt.controller.js';
import { NaiveJwtStrategy } from './naive-jwt.strategy.js';

/**
 * The benchmarks' application: the demo, configured from the environment as `npm start` configures
 * it, plus the routes svc's `GET /auth/me` is compared with: `GET /bench/users/:id`, an unguarded
 * user lookup, and `GET /bench/naive/me`, a documentation-style passport-jwt guard.
 */
@Module({})
export class BenchAppModule {
  static register(config: DemoConfig): DynamicModule {
    return {
      module: BenchAppModule,
      imports: [DemoModule.register(config), PassportModule, TypeOrmModule.forFeature([DemoUser])],
      controllers: [BenchUsersController, NaiveJwtController],
      providers: [{ provide: DEMO_CONFIG, useValue: config }, NaiveJwtStrategy],
    };
  }
}
