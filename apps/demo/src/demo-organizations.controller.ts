import { Controller, Get } from '@nestjs/common';
import { CurrentUser, OrgPermissions, type UserBody } from '#svc/auth';

/** The demo's route behind an organization permission (AUTH_ORGANIZATIONS=on, docs/demo.md). */
@Controller()
export class DemoOrganizationsController {
  /** For members of the active organization whose role grants `projects:read`: 401, 403 ORGANIZATION_REQUIRED or PERMISSION_DENIED otherwise. */
  @Get('org-projects')
  @OrgPermissions('projects:read')
  projects(@CurrentUser() user: UserBody): { organizationId: string } {
    return { organizationId: user.organization!.id };
  }
}
