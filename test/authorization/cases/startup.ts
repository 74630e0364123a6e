import { Controller, Get } from '@nestjs/common';
import request from 'supertest';
import { AuthConfigError, type AuthorizationOptions, Permissions, Roles } from '#svc/auth';
import { createAuthTestApp } from '#svc/auth/testing';

const POLICY: AuthorizationOptions = { roles: { admin: ['users:*'], editor: ['notes:write', 'notes:read'] } };

@Controller('typo-role')
class TypoRoleController {
  @Get()
  @Roles('admin', 'editr')
  handler(): void {}
}

@Controller('typo-permission')
@Permissions('notes:delete')
class TypoPermissionController {
  @Get()
  handler(): void {}
}

@Controller('defined')
class DefinedController {
  @Get()
  @Permissions('users:delete', 'notes:read')
  handler(): void {}
}

/** Startup with the application's own controllers: what fails, and the message that names what to fix. */
async function startup(authorization: AuthorizationOptions | undefined, controllers: Function[] = []): Promise<unknown> {
  try {
    const t = await createAuthTestApp({ controllers: controllers as never, options: { ...(authorization === undefined ? {} : { authorization }), password: { sendsResetMail: false } } });
    await t.close();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** docs/guides/roles-and-permissions.md: a typo is caught at boot, not in production. */
describe('the authorization policy at startup', () => {
  it('refuses a role a @Roles names and the policy does not define, naming it and where', async () => {
    const error = await startup(POLICY, [TypoRoleController]);
    expect(error).toBeInstanceOf(AuthConfigError);
    expect((error as AuthConfigError).message).toContain('"editr"');
    expect((error as AuthConfigError).message).toContain('TypoRoleController.handler');
  });

  it('refuses a permission no role grants (neither itself nor its resource\'s "*"), on a controller', async () => {
    const error = await startup(POLICY, [TypoPermissionController]);
    expect(error).toBeInstanceOf(AuthConfigError);
    expect((error as AuthConfigError).message).toContain('"notes:delete"');
  });

  it('accepts a permission granted through <resource>:*', async () => {
    expect(await startup(POLICY, [DefinedController])).toBeUndefined();
  });

  it('refuses @Roles in an application without the authorization section', async () => {
    const error = await startup(undefined, [TypoRoleController]);
    expect(error).toBeInstanceOf(AuthConfigError);
    expect((error as AuthConfigError).field).toBe('authorization');
  });

  it('refuses a default role the policy does not define', async () => {
    const error = await startup({ ...POLICY, defaultRoles: ['member'] });
    expect(error).toBeInstanceOf(AuthConfigError);
    expect((error as AuthConfigError).field).toBe('authorization.defaultRoles[0]');
    expect((error as AuthConfigError).message).toContain('"member"');
  });

  it.each([['notes'], ['notes:'], [':read'], ['notes:read:all'], ['notes:re ad'], ['notes:*x'], [42]])('refuses the malformed permission %p', async (permission) => {
    const error = await startup({ roles: { editor: [permission as string] } });
    expect(error).toBeInstanceOf(AuthConfigError);
    expect((error as AuthConfigError).field).toBe('authorization.roles.editor[0]');
  });

  it('refuses a malformed role name', async () => {
    const error = await startup({ roles: { 'a,b': [] } });
    expect(error).toBeInstanceOf(AuthConfigError);
    expect((error as AuthConfigError).field).toBe('authorization.roles');
  });
});

/** Without the section, the bodies are what they were. */
describe('without the authorization section', () => {
  it('adds neither roles nor permissions to the signup body or /me', async () => {
    const t = await createAuthTestApp({ options: { password: { sendsResetMail: false } } });
    try {
      const signup = await request(t.app.getHttpServer()).post('/auth/signup').send({ email: 'plain@example.io', password: 'correct horse battery' });
      expect(signup.status).toBe(201);
      expect(Object.keys(signup.body).sort()).toEqual(['email', 'id']);
      const me = await request(t.app.getHttpServer()).get('/auth/me').set('Cookie', signup.headers['set-cookie']);
      expect(Object.keys(me.body).sort()).toEqual(['email', 'id']);
    } finally {
      await t.close();
    }
  });
});
