import { Controller, Get, UseGuards } from '@nestjs/common';
import { CurrentUserGuard, Roles } from '#svc/auth';

/** The demo's route behind a role (docs/demo.md), mounted with the demo's roles policy. */
@Controller()
export class DemoAdminController {
  /** Only for holders of `admin` (DEMO_ADMIN_EMAILS): 401 without a credential, 403 PERMISSION_DENIED without the role. */
  @Get('admin-only')
  @UseGuards(CurrentUserGuard)
  @Roles('admin')
  adminOnly(): { ok: true } {
    return { ok: true };
  }
}
