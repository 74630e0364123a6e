import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { type AuthorizationOptions, CurrentUser, CurrentUserGuard, Permissions, type UserBody } from '#svc/auth';

/** The bench app's roles policy (BENCH_AUTHORIZATION=1): every new user holds two roles. */
export const BENCH_POLICY: AuthorizationOptions = {
  // `admin`, held by nobody here, for the demo's /admin-only and its administration routes.
  roles: { admin: ['users:*', 'audit:read'], member: [], reader: ['notes:read'], writer: ['notes:write'] },
  defaultRoles: ['member', 'reader'],
};

/**
 * Benchmark pair (only with BENCH_AUTHORIZATION=1): the same answer behind `CurrentUserGuard` alone,
 * and behind `@Permissions`, which resolves the credential and checks the policy.
 */
@Controller('bench/access')
@ApiExcludeController()
export class BenchAccessController {
  @Get('guarded')
  @UseGuards(CurrentUserGuard)
  guarded(@CurrentUser() user: UserBody): UserBody {
    return user;
  }

  @Get('permitted')
  @Permissions('notes:read')
  permitted(@CurrentUser() user: UserBody): UserBody {
    return user;
  }
}
