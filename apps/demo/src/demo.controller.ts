import { Controller, Get, UseGuards } from '@nestjs/common';
import { CurrentUser, CurrentUserGuard, type UserBody } from '#svc/auth';

/** The demo's own API route: one protected by svc's credential. The page is DemoPageController's. */
@Controller()
export class DemoController {
  @Get('profile')
  @UseGuards(CurrentUserGuard)
  profile(@CurrentUser() user: UserBody): UserBody {
    return user;
  }
}
