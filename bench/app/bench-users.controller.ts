import { Controller, Get, NotFoundException, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AuthService, type UserBody } from '#svc/auth';

/**
 * Benchmark baseline: the same user lookup by primary key that `GET /auth/me` makes, without
 * authentication.
 */
@Controller('bench/users')
@ApiExcludeController()
export class BenchUsersController {
  constructor(private readonly auth: AuthService) {}

  @Get(':id')
  async benchUser(@Param('id', ParseUUIDPipe) id: string): Promise<UserBody> {
    const user = await this.auth.findUserById(id);
    if (!user) throw new NotFoundException();
    return this.auth.toUserBody(user);
  }
}
