import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type ArgumentsHost,
  type CanActivate,
  Catch,
  Controller,
  type ExceptionFilter,
  type ExecutionContext,
  ForbiddenException,
  Get,
  HttpException,
  HttpStatus,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import type { Request, Response } from 'express';
import request from 'supertest';
import { createTestApp, type TestApp } from '../../support/test-app.js';

/** An application's global guard, as @nestjs/throttler or a maintenance switch would be. */
@Injectable()
class ApplicationGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const refusal = context.switchToHttp().getRequest<Request>().headers['x-refuse'];
    if (refusal === 'throttle') throw new HttpException('ThrottlerException: Too Many Requests', HttpStatus.TOO_MANY_REQUESTS);
    if (refusal === 'forbid') throw new ForbiddenException();
    if (refusal === 'teapot') throw new HttpException("I'm a teapot", HttpStatus.I_AM_A_TEAPOT);
    return true;
  }
}

/** An application's own guard on svc's routes: its refusal keeps its status, with the library's error body (docs/decisions/0004-errors.md). */
describe("an application's global guard refusing a request to a library route", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: 'sqlite', providers: [{ provide: APP_GUARD, useClass: ApplicationGuard }] });
  });
  afterAll(() => t?.close());

  const login = (refusal: string) => request(t.server).post('/auth/login').set('X-Refuse', refusal).send({ email: 'ada@x.io', password: 'correct horse' });

  it.each([
    ['throttle', 429, 'Too Many Requests', 'RATE_LIMITED'],
    ['forbid', 403, 'Forbidden', 'FORBIDDEN'],
  ])('%s: %d %s with the code %s', async (refusal, status, error, code) => {
    const response = await login(refusal);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ statusCode: status, error, message: expect.any(String), code });
  });

  it('a status the library has no code for is 500 INTERNAL_ERROR', async () => {
    expect((await login('teapot')).body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error', code: 'INTERNAL_ERROR' });
  });
});

@Controller('projects')
class ProjectsController {
  @Get(':id')
  find(): never {
    throw new NotFoundException('no such project');
  }
}

/** The application's own 404 body. */
@Catch(NotFoundException)
class ApplicationNotFoundFilter implements ExceptionFilter {
  catch(_exception: NotFoundException, host: ArgumentsHost): void {
    host.switchToHttp().getResponse<Response>().status(404).json({ problem: 'not here' });
  }
}

describe("the application's own exception filters", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: 'sqlite', controllers: [ProjectsController], providers: [{ provide: APP_FILTER, useClass: ApplicationNotFoundFilter }] });
  });
  afterAll(() => t?.close());

  it("keep the application's 404s; an unknown path under the prefix still gets the library's NOT_FOUND", async () => {
    expect((await request(t.server).get('/projects/42')).body).toEqual({ problem: 'not here' });
    expect((await request(t.server).get('/no/such/page')).body).toEqual({ problem: 'not here' });
    const unknown = await request(t.server).get('/auth/no-such-route');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    const wrongMethod = await request(t.server).get('/auth/login');
    expect([wrongMethod.status, wrongMethod.body.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe("the application's own middleware", () => {
  it("runs before svc's request rules, so a refusal of the body gate carries its CORS headers", async () => {
    const t = await createTestApp({ engine: 'sqlite', configure: (app) => app.enableCors({ origin: 'https://app.test' }) });
    try {
      const form = await request(t.server).post('/auth/login').set('Origin', 'https://app.test').set('Content-Type', 'text/plain').send('hello');
      expect([form.status, form.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      expect(form.headers['access-control-allow-origin']).toBe('https://app.test');
    } finally {
      await t.close();
    }
  });
});
