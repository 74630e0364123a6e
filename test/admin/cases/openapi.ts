import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { addAuthToDocument } from '#svc/auth/openapi';
import { type AdminApp, createAdminApp } from '../admin-kit.js';

// The OpenAPI document of an application with the admin section lists its routes and their refusals.
describe('the admin routes in the OpenAPI document', () => {
  let t: AdminApp;
  beforeAll(async () => {
    t = await createAdminApp('sqlite', 'jwt');
  });
  afterAll(() => t.close());

  it('documents every admin route with its success, 401, 403 and its own errors', () => {
    const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
    const paths = document.paths;
    const operations = Object.entries(paths)
      .filter(([path]) => path.startsWith('/auth/admin'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(operations).toEqual(
      [
        'GET /auth/admin/users',
        'GET /auth/admin/users/{id}',
        'POST /auth/admin/users/{id}/roles',
        'DELETE /auth/admin/users/{id}/roles/{role}',
        'POST /auth/admin/users/{id}/deactivate',
        'POST /auth/admin/users/{id}/activate',
        'POST /auth/admin/users/{id}/revoke-sessions',
        'POST /auth/admin/users/{id}/password-reset',
        'DELETE /auth/admin/users/{id}',
        'POST /auth/admin/users/{id}/impersonate',
        'POST /auth/admin/impersonation/stop',
      ].sort(),
    );
    expect((paths['/auth/admin/users'].get as unknown as Record<string, unknown>)['x-svc-permissions']).toEqual(['users:read']);
    expect((paths['/auth/admin/users/{id}'].delete as unknown as Record<string, unknown>)['x-svc-permissions']).toEqual(['users:delete']);
    expect(paths['/auth/admin/impersonation/stop'].post).not.toHaveProperty('x-svc-permissions');
    const impersonate = paths['/auth/admin/users/{id}/impersonate'].post!;
    expect(Object.keys(impersonate.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404']));
    expect(Object.keys(paths['/auth/admin/impersonation/stop'].post!.responses)).toEqual(expect.arrayContaining(['204', '401', '409']));
    expect(Object.keys(paths['/auth/admin/users/{id}'].delete!.responses)).toEqual(expect.arrayContaining(['204', '403', '404', '409']));
  });
});
