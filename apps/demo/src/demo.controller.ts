import { Controller, Get, Inject, NotFoundException, Param, ParseUUIDPipe, UseGuards } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { AuthService, CurrentUser, CurrentUserGuard, type UserBody } from '#svc/auth';
import { DEMO_CONFIG } from './demo.tokens.js';
import type { DemoConfig } from './demo-config.js';

/** The demo's own API routes: a protected route and (opt-in) a benchmark baseline. The page is DemoPageController's. */
@Controller()
export class DemoController {
  constructor(
    private readonly auth: AuthService,
    @Inject(DEMO_CONFIG) private readonly config: DemoConfig,
  ) {}

  @Get('profile')
  @UseGuards(CurrentUserGuard)
  profile(@CurrentUser() user: UserBody): UserBody {
    return user;
  }

  /**
   * Benchmark baseline (DEMO_BENCH_ROUTES=1 only): the same user lookup by primary key that
   * `GET /auth/me` makes, without authentication.
   */
  @Get('bench/users/:id')
  @ApiExcludeEndpoint()
  async benchUser(@Param('id', ParseUUIDPipe) id: string): Promise<UserBody> {
    if (!this.config.benchRoutes) throw new NotFoundException();
    const user = await this.auth.findUserById(id);
    if (!user) throw new NotFoundException();
    return this.auth.toUserBody(user);
  }
}
