import { type DynamicModule, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DemoModule } from '../../apps/demo/src/demo.module.js';
import { DEMO_CONFIG } from '../../apps/demo/src/demo.tokens.js';
import type { DemoConfig } from '../../apps/demo/src/demo-config.js';
import { DemoUser } from '../../apps/demo/src/users/demo-user.entity.js';
import { BenchAccessController, BENCH_POLICY } from './bench-access.controller.js';
import { BenchUsersController } from './bench-users.controller.js';
import { NaiveJwtController } from './naive-jwt.controller.js';
import { NaiveJwtStrategy } from './naive-jwt.strategy.js';

/**
 * The benchmarks' application: the demo, configured from the environment as `npm start` configures
 * it, plus the routes svc's `GET /auth/me` is compared with: `GET /bench/users/:id`, an unguarded
 * user lookup, and `GET /bench/naive/me`, a documentation-style passport-jwt guard; with roles,
 * `GET /bench/access/guarded` and `/permitted` (docs/guides/roles-and-permissions.md).
 */
@Module({})
export class BenchAppModule {
  /** `withRoles`: the demo with `BENCH_POLICY`, and the `@Permissions` pair of routes. */
  static register(config: DemoConfig, withRoles = false): DynamicModule {
    return {
      module: BenchAppModule,
      // Without roles, the demo without its policy and administration: /auth/me as the earlier figures measured it.
      imports: [DemoModule.register(config, withRoles ? { authorization: BENCH_POLICY } : { authorization: undefined, admin: undefined }), PassportModule, TypeOrmModule.forFeature([DemoUser])],
      controllers: [BenchUsersController, NaiveJwtController, ...(withRoles ? [BenchAccessController] : [])],
      providers: [{ provide: DEMO_CONFIG, useValue: config }, NaiveJwtStrategy],
    };
  }
}
