import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { addAuthToDocument } from '#svc/auth/openapi';
import { type ApiKeyApp, createApiKeyApp } from '../api-keys-kit.js';

// The OpenAPI document of an application with the apiKeys section: the routes, their bodies, the
// key as a security scheme where it is accepted, and API_KEY_NOT_ALLOWED everywhere else.
describe.each(['session', 'jwt'] as const)('API keys in the OpenAPI document, %s credential', (credential) => {
  let t: ApiKeyApp;
  beforeAll(async () => {
    t = await createApiKeyApp('sqlite', credential);
  });
  afterAll(() => t.close());

  it('documents the /api-keys routes, the key as a scheme on /me and the application routes, and the 403 elsewhere', () => {
    const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
    const { paths } = document;
    const scheme = credential === 'jwt' ? 'svcBearer' : 'svcSession';
    expect(document.components!.securitySchemes!.svcApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const create = paths['/auth/api-keys'].post!;
    expect(create.requestBody).toEqual({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/SvcApiKeyCreationRequest' } } } });
    expect(create.responses['201']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/SvcApiKeyCreated' } } } });
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '409']));
    expect(paths['/auth/api-keys'].get!.responses['200']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/SvcApiKeys' } } } });
    expect(Object.keys(paths['/auth/api-keys/{id}'].delete!.responses)).toEqual(expect.arrayContaining(['204', '401', '403', '404']));
    expect(document.components!.schemas!.SvcApiKeys).toMatchObject({ items: { required: ['id', 'name', 'scopes', 'createdAt', 'expiresAt', 'lastUsedAt', 'start'] } });
    // /me and the application's guarded routes take the credential or a key; other library routes refuse a key.
    expect(paths['/auth/me'].get!.security).toEqual([{ [scheme]: [] }, { svcApiKey: [] }]);
    expect(paths['/profile'].get!.security).toEqual([{ [scheme]: [] }, { svcApiKey: [] }]);
    expect(JSON.stringify(paths['/auth/me'].get!.responses)).not.toContain('API_KEY_NOT_ALLOWED');
    for (const [path, method] of [['/auth/logout', 'post'], ['/auth/api-keys', 'get'], ['/auth/sessions', 'get'], ['/auth/admin/users', 'get']] as const) {
      expect(JSON.stringify(paths[path][method]!.responses['403'])).toContain('API_KEY_NOT_ALLOWED');
    }
  });
});
