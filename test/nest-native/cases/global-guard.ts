import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type CanActivate, Controller, type ExecutionContext, ForbiddenException, Get, Injectable, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import request from 'supertest';
import { CurrentUser, OptionalAuth, Public, RateLimit, type UserBody } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { cookiesOf, createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';

/** A role guard as applications write them: it reads `request.user`, like after passport's guards. */
@Injectable()
class PaidPlanOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const user = context.switchToHttp().getRequest<Request & { user?: UserBody }>().user;
    if (user?.plan !== 'pro') throw new ForbiddenException('Pro plan only');
    return true;
  }
}

@Controller('app')
class AppRoutes {
  @Get('dashboard')
  dashboard(@CurrentUser() user: UserBody, @Req() request: Request & { user?: UserBody }) {
    return { user, fromRequest: request.user };
  }

  @Get('reports')
  @UseGuards(PaidPlanOnly)
  reports() {
    return { ok: true };
  }

  @Public()
  @Get('status')
  status() {
    return { up: true };
  }

  @OptionalAuth()
  @Get('greeting')
  greeting(@CurrentUser() user: UserBody | undefined) {
    return { hello: user?.email ?? 'stranger' };
  }

  @OptionalAuth()
  @RateLimit({ by: 'user', max: 2, windowSeconds: 3600 })
  @Get('limited')
  limited(@CurrentUser() user: UserBody | undefined) {
    return { hello: user?.email ?? 'stranger' };
  }

  @Post('notes')
  note(@CurrentUser() user: UserBody) {
    return { by: user.id };
  }
}

@Public()
@Controller('open')
class OpenRoutes {
  @Get()
  open() {
    return { open: true };
  }
}

describe.each(BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((strategy) => [engine, strategy] as const)))(
  'globalGuard: true on %s, %s strategy',
  (engine, strategy) => {
    let t: TestApp;
    let credential: Record<string, string>;
    let userId: string;
    beforeAll(async () => {
      t = await createTestApp({
        engine,
        strategy,
        globalGuard: true,
        controllers: [AppRoutes, OpenRoutes],
        options: { rateLimit: { max: 100 }, ...(strategy === 'jwt' ? { jwt: { secretKey: TEST_SECRET } } : {}) },
        // Middleware of the application that puts a user of its own on the request (a header here).
        configure: (app) =>
          app.use((req: Request & { user?: unknown }, _res: unknown, next: () => void) => {
            const planted = req.headers['x-planted-user'];
            if (typeof planted === 'string') req.user = { id: planted, email: `${planted}@planted.test` };
            next();
          }),
      });
      // The library's own public routes stay public under the global guard.
      const signup = await request(t.server).post('/auth/signup').send({ email: 'global@x.io', password: 'correct horse' });
      expect(signup.status).toBe(201);
      credential = strategy === 'session' ? { Cookie: `svc_session=${cookiesOf(signup).svc_session.value}` } : { Authorization: `Bearer ${signup.body.access_token}` };
      userId = (await request(t.server).get('/auth/me').set(credential)).body.id;
    });
    afterAll(() => t?.close());

    it('protects every route without a decorator: 401 without a credential, the user with one', async () => {
      const anonymous = await request(t.server).get('/app/dashboard');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.code).toBe('UNAUTHENTICATED');
      if (strategy === 'jwt') expect(anonymous.headers['www-authenticate']).toBe('Bearer');
      const signedIn = await request(t.server).get('/app/dashboard').set(credential);
      expect(signedIn.status).toBe(200);
      const body = { id: userId, email: 'global@x.io', displayName: null, plan: 'free' };
      expect(signedIn.body).toEqual({ user: body, fromRequest: body });
      expect((await request(t.server).post('/app/notes').set(credential)).body).toEqual({ by: userId });
    });

    it('puts the user body on request.user, where a role guard reads it', async () => {
      expect((await request(t.server).get('/app/reports').set(credential)).status).toBe(403);
      await t.dataSource.query(`UPDATE users SET plan = 'pro' WHERE id = '${userId}'`);
      expect((await request(t.server).get('/app/reports').set(credential)).status).toBe(200);
      await t.dataSource.query(`UPDATE users SET plan = 'free' WHERE id = '${userId}'`);
    });

    it('@Public() opens a route or a whole controller', async () => {
      expect((await request(t.server).get('/app/status')).body).toEqual({ up: true });
      expect((await request(t.server).get('/open')).body).toEqual({ open: true });
    });

    it('@OptionalAuth() serves everyone: the user, or undefined for no or a refused credential', async () => {
      expect((await request(t.server).get('/app/greeting').set(credential)).body).toEqual({ hello: 'global@x.io' });
      expect((await request(t.server).get('/app/greeting')).body).toEqual({ hello: 'stranger' });
      const refused = strategy === 'session' ? { Cookie: 'svc_session=forged' } : { Authorization: 'Bearer a.b.c' };
      const response = await request(t.server).get('/app/greeting').set(refused);
      expect(response.body).toEqual({ hello: 'stranger' });
      expect(response.headers['www-authenticate']).toBeUndefined();
    });

    it('owns request.user: an anonymous request on an @OptionalAuth() route has none, whatever other middleware planted', async () => {
      expect((await request(t.server).get('/app/greeting').set('x-planted-user', 'admin')).body).toEqual({ hello: 'stranger' });
      expect((await request(t.server).get('/app/greeting').set('x-planted-user', 'admin').set(credential)).body).toEqual({ hello: 'global@x.io' });
      // Counted by address, not by the planted id: a new planted user each time does not escape the limit.
      const answers = [];
      for (const planted of ['a', 'b', 'c']) answers.push((await request(t.server).get('/app/limited').set('x-planted-user', planted)).status);
      expect(answers).toEqual([200, 200, 429]);
    });

    it('leaves /auth/me to its own check: 401 without a credential, the user with it', async () => {
      expect((await request(t.server).get('/auth/me')).status).toBe(401);
      expect((await request(t.server).get('/auth/me').set(credential)).body.id).toBe(userId);
    });

    if (strategy === 'session') {
      it('still refuses a cookie-authenticated request from another origin on an application route', async () => {
        const response = await request(t.server).post('/app/notes').set(credential).set('Origin', 'https://evil.test');
        expect(response.status).toBe(403);
        expect(response.body.code).toBe('CSRF_REJECTED');
      });
    }
  },
);
