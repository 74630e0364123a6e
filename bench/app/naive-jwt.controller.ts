import { Controller, Get, Req, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import type { DemoUser } from '../../apps/demo/src/users/demo-user.entity.js';

/** Benchmark comparison only: `AuthGuard('jwt')` and `req.user`, as in the NestJS documentation. */
@ApiExcludeController()
@Controller('bench/naive')
export class NaiveJwtController {
  @Get('me')
  @UseGuards(AuthGuard('jwt'))
  me(@Req() request: Request): Omit<DemoUser, 'passwordHash' | 'internalNote'> {
    // The documentation returns req.user as it is; the hash and the private note are left out here.
    const { passwordHash: _hash, internalNote: _note, ...user } = request.user as DemoUser;
    return user;
  }
}
