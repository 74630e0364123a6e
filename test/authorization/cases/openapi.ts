import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { addAuthToDocument } from '#svc/auth/openapi';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { BackofficeController, NotesController, POLICY } from '../authorization-kit.js';

type Operation = { security?: unknown[]; 'x-svc-roles'?: string[]; 'x-svc-permissions'?: string[]; responses: Record<string, { content?: { 'application/json': { examples: Record<string, unknown> } } }> };

/** docs/guides/roles-and-permissions.md: the OpenAPI document says what each route requires. */
describe('@Roles and @Permissions in the OpenAPI document', () => {
  let t: TestApp;
  let paths: Record<string, Record<string, Operation>>;
  let schemas: Record<string, { properties: Record<string, unknown>; required: string[] }>;
  beforeAll(async () => {
    t = await createTestApp({ engine: 'sqlite', controllers: [NotesController, BackofficeController], options: { authorization: POLICY } });
    const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
    paths = document.paths as never;
    schemas = document.components!.schemas as never;
  });
  afterAll(() => t?.close());

  it('marks a @Roles route with x-svc-roles, a @Permissions route with x-svc-permissions, each with the credential, 401 and 403 PERMISSION_DENIED', () => {
    const list = paths['/notes'].get;
    expect(list['x-svc-roles']).toEqual(['editor', 'reader']);
    expect(list['x-svc-permissions']).toBeUndefined();
    expect(list.security).toEqual([{ svcSession: [] }]);
    expect(Object.keys(list.responses['401'].content!['application/json'].examples)).toEqual(['UNAUTHENTICATED']);
    expect(Object.keys(list.responses['403'].content!['application/json'].examples)).toEqual(['PERMISSION_DENIED']);
    expect(paths['/notes/{id}'].delete['x-svc-permissions']).toEqual(['notes:read', 'notes:delete']);
    // The controller's and the handler's requirements, both.
    const audit = paths['/backoffice/audit'].get;
    expect([audit['x-svc-roles'], audit['x-svc-permissions']]).toEqual([['admin'], ['audit:read', 'users:read']]);
  });

  it('lists roles in the user body schema, permissions beside it (/me only)', () => {
    const body = Object.values(schemas).find((schema) => schema.properties?.email && schema.properties?.roles);
    expect(body?.required).toContain('roles');
    expect(body?.required).not.toContain('permissions');
    expect(Object.keys(body!.properties)).toContain('permissions');
  });
});
