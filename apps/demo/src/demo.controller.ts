import { Controller, Get, UseGuards } from '@nestjs/common';
import { CurrentUser, CurrentUserGuard, Roles, type UserBody } from '#svc/auth';

/** The demo's own API routes: one protected by svc's credential, one by a role. The page is DemoPageController's. */
@Controller()
export class DemoController {
  @Get('profile')
  @UseGuards(CurrentUserGuard)
  profile(@CurrentUser() user: UserBody): UserBody {
    return user;
  }

  /** Only for holders of `admin` (DEMO_ADMIN_EMAILS): 401 without a credential, 403 PERMISSION_DENIED without the role. */
  @Get('admin-only')
  @UseGuards(CurrentUserGuard)
  @Roles('admin')
  adminOnly(): { ok: true } {
    return { ok: true };
  }
}
