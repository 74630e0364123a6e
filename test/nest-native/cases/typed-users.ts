import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, UseGuards } from '@nestjs/common';
import request from 'supertest';
import { AuthService, CurrentUser, CurrentUserGuard, type UserBodyOf } from '#svc/auth';
import { SuiteUser } from '../../support/users/suite-user.entity.js';
import { cookiesOf, createTestApp, type TestApp } from '../../support/test-app.js';

/** The suite's user body, typed from its `@SvcReturned()` columns. */
type SuiteUserBody = UserBodyOf<SuiteUser, 'displayName' | 'plan'>;

@Controller('typed')
class TypedRoutes {
  constructor(private readonly auth: AuthService<SuiteUser>) {}

  @Get('me')
  @UseGuards(CurrentUserGuard)
  async me(@CurrentUser() user: SuiteUserBody) {
    // @ts-expect-error internalNote is not returned: it is not in the type either.
    void user.internalNote;
    const row: SuiteUser | null = await this.auth.findUserById(user.id);
    const body: Record<string, unknown> = this.auth.toUserBody(row!);
    return { greeting: `${user.displayName ?? user.email} on ${user.plan}`, body };
  }
}

/** `UserBodyOf` and `AuthService<AppUser>` type what the library hands out (checked by `tsc` in npm test). */
describe('typed users', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: 'sqlite', controllers: [TypedRoutes] });
  });
  afterAll(() => t?.close());

  it('gives the typed body to the route and the typed row to AuthService', async () => {
    const signup = await request(t.server).post('/auth/signup').send({ email: 'typed@x.io', password: 'correct horse', displayName: 'Ty' });
    const response = await request(t.server).get('/typed/me').set('Cookie', `svc_session=${cookiesOf(signup).svc_session.value}`);
    expect(response.body).toEqual({ greeting: 'Ty on free', body: { id: signup.body.id, email: 'typed@x.io', displayName: 'Ty', plan: 'free' } });
  });
});
