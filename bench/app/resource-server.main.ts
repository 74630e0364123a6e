// A second service for bench/passport-svc-jwt.bench.ts: no database, svc/passport's strategy on one
// route and nothing on another, reading SVC_JWKS_URL, SVC_ISSUER (also the audience), PORT.
import 'reflect-metadata';
import { type CanActivate, Controller, Get, Injectable, Module, Req, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { SvcJwtModule } from '../../libs/auth/src/passport/index.js';

/** A guard that lets every request through: what any guard costs a route, Passport apart. */
@Injectable()
class OpenDoorGuard implements CanActivate {
  async canActivate(): Promise<boolean> {
    return true;
  }
}

@Controller()
class OrdersController {
  @Get('orders')
  @UseGuards(AuthGuard('svc-jwt'))
  orders(@Req() request: Request): { user: unknown } {
    return { user: request.user };
  }

  @Get('open-door')
  @UseGuards(OpenDoorGuard)
  openDoor(@Req() request: Request): { user: unknown } {
    return { user: request.headers.authorization ? { id: 'x' } : null };
  }

  @Get('open')
  open(): { user: null } {
    return { user: null };
  }
}

const issuer = process.env.SVC_ISSUER!;
@Module({ imports: [SvcJwtModule.forRoot({ jwksUrl: process.env.SVC_JWKS_URL!, issuer, audience: issuer })], controllers: [OrdersController] })
class ResourceServerModule {}

const app = await NestFactory.create(ResourceServerModule, { logger: ['warn', 'error'] });
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT), '127.0.0.1');
