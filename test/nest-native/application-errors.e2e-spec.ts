import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type CanActivate, type ExecutionContext, ForbiddenException, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Request } from 'express';
import request from 'supertest';
import { createTestApp, type TestApp } from '../support/test-app.js';

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

/** An application's own guard on svc's routes: its refusal keeps its status, with the library's error body (README, "Errors"). */
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
