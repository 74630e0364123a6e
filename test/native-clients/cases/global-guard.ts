import { Controller, Get } from '@nestjs/common';
import request from 'supertest';
import { CurrentUser, Public, type UserBody } from '#svc/auth';
import { createTestApp, type TestApp, TEST_SECRET } from '../../support/test-app.js';
import { NATIVE, nativeTokensOf, PASSWORD } from '../native-clients-kit.js';

@Controller('notes')
class NotesController {
  @Get()
  list(@CurrentUser() user: UserBody): { owner: string } {
    return { owner: user.email };
  }

  @Get('open')
  @Public()
  open(): { ok: true } {
    return { ok: true };
  }
}

describe('a session module with globalGuard and native clients', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: 'sqlite', strategy: 'session', globalGuard: true, controllers: [NotesController], options: { secret: TEST_SECRET, nativeClients: true } as never });
  });
  afterAll(() => t.close());

  it('the global guard takes the bearer token beside the session cookie', async () => {
    const signup = await request(t.server).post('/auth/signup').set(NATIVE).send({ email: 'global@x.io', password: PASSWORD });
    const tokens = nativeTokensOf(signup);
    expect((await request(t.server).get('/notes').set('Authorization', `Bearer ${tokens.access}`)).body).toEqual({ owner: 'global@x.io' });
    const refused = await request(t.server).get('/notes').set('Authorization', 'Bearer not.a.token');
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
    expect((await request(t.server).get('/notes')).status).toBe(401);
    expect((await request(t.server).get('/notes/open')).status).toBe(200);
  });
});
