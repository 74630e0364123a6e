import { Controller, Get, Header, Inject, NotFoundException, Param, ParseUUIDPipe, UseGuards } from '@nestjs/common';
import { AuthService, CurrentUser, CurrentUserGuard, type UserBody } from '#svc/auth';
import { DEMO_CONFIG } from './demo.tokens.js';
import type { DemoConfig } from './demo-config.js';
import { demoPage, demoScript } from './demo-page.js';

const PAGE_SECURITY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** The demo's own routes: its page, a protected route, and (opt-in) a benchmark baseline. */
@Controller()
export class DemoController {
  constructor(
    private readonly auth: AuthService,
    @Inject(DEMO_CONFIG) private readonly config: DemoConfig,
  ) {}

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', PAGE_SECURITY)
  page(): string {
    return demoPage(this.config);
  }

  /** The page's password-reset link lands here (contract §8 MAIL line). */
  @Get('reset-password')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', PAGE_SECURITY)
  @Header('Referrer-Policy', 'no-referrer')
  resetPage(): string {
    return demoPage(this.config);
  }

  @Get('demo.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  script(): string {
    return demoScript;
  }

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
  async benchUser(@Param('id', ParseUUIDPipe) id: string): Promise<UserBody> {
    if (!this.config.benchRoutes) throw new NotFoundException();
    const user = await this.auth.findUserById(id);
    if (!user) throw new NotFoundException();
    return this.auth.toUserBody(user);
  }
}
