import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { addAuthToDocument } from '#svc/auth/openapi';
import { createNativeApp } from '../native-clients-kit.js';

describe('the OpenAPI document of a session module with native clients', () => {
  it('builds, and lists POST /auth/refresh beside the session routes', async () => {
    const t = await createNativeApp({ engine: 'sqlite', credential: 'session' });
    try {
      const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
      const paths = document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
      expect(Object.keys(paths['/auth/refresh'].post.responses)).toEqual(expect.arrayContaining(['200', '401']));
      expect(paths['/auth/logout'].post).toBeDefined();
    } finally {
      await t.close();
    }
  });
});
