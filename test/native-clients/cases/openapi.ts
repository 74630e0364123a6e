import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { addAuthToDocument } from '#svc/auth/openapi';
import { CREDENTIALS, createNativeApp } from '../native-clients-kit.js';

type Operation = {
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }>;
};

async function documentOf(credential: 'session' | 'jwt', native: boolean) {
  const t = await createNativeApp({ engine: 'sqlite', credential, native });
  const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
  await t.close();
  return document as unknown as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> } };
}

const NATIVE_BODY = { $ref: '#/components/schemas/SvcNativeTokenBody' };
const headerNames = (operation: Operation) => (operation.parameters ?? []).filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name);

describe.each(CREDENTIALS)('the OpenAPI document with native clients, browser credential %s', (credential) => {
  it('documents the header, the native token body, the refresh request and the bearer scheme', async () => {
    const { paths, components } = await documentOf(credential, true);
    expect(components.schemas.SvcNativeTokenBody).toBeDefined();
    expect(components.securitySchemes.svcBearer).toBeDefined();
    const login = paths['/auth/login'].post;
    expect(headerNames(login)).toContain('X-Svc-Client');
    expect(JSON.stringify(login.responses['200'].content)).toContain('SvcNativeTokenBody');
    expect(headerNames(paths['/auth/signup'].post)).toContain('X-Svc-Client');
    const refresh = paths['/auth/refresh'].post;
    expect(refresh.requestBody!.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcNativeRefreshRequest' });
    if (credential === 'session') {
      expect(refresh.responses['200'].content!['application/json'].schema).toEqual(NATIVE_BODY);
      expect(refresh.responses['200'].headers).toBeUndefined();
      expect(paths['/auth/me'].get.security).toEqual([{ svcSession: [] }, { svcBearer: [] }]);
      expect(paths['/profile'].get.security).toEqual([{ svcSession: [] }, { svcBearer: [] }]);
    } else {
      expect(refresh.responses['200'].content!['application/json'].schema).toEqual({ oneOf: [{ $ref: '#/components/schemas/SvcTokenBody' }, NATIVE_BODY] });
      expect(paths['/auth/me'].get.security).toEqual([{ svcBearer: [] }]);
    }
    expect(paths['/auth/logout'].post.requestBody!.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcNativeRefreshRequest' });
  });

  it('says nothing of native clients without the option', async () => {
    const { paths, components } = await documentOf(credential, false);
    expect(components.schemas.SvcNativeTokenBody).toBeUndefined();
    expect(headerNames(paths['/auth/login'].post)).not.toContain('X-Svc-Client');
    expect(JSON.stringify(paths)).not.toContain('Native');
    if (credential === 'session') expect(paths['/auth/refresh']).toBeUndefined();
  });
});
