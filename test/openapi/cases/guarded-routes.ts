import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, UseGuards } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { CurrentUserGuard, OptionalAuth, Public } from '#svc/auth';
import { addAuthToDocument } from '#svc/auth/openapi';
import { createTestApp, type TestApp } from '../../support/test-app.js';

@Controller('notes')
class NotesController {
  @Get()
  list() {
    return [];
  }

  @Get('feed')
  @OptionalAuth()
  feed() {
    return [];
  }

  @Get('status')
  @Public()
  status() {
    return { ok: true };
  }
}

@Controller('billing')
@UseGuards(CurrentUserGuard)
class BillingController {
  @Get()
  invoices() {
    return [];
  }
}

type Operation = { security?: unknown[]; responses: Record<string, { content?: { 'application/json': { examples: Record<string, { value: unknown }> } } }> };

async function documentOf(globalGuard: boolean, credential: 'session' | 'jwt'): Promise<{ t: TestApp; paths: Record<string, Record<string, Operation>> }> {
  const t = await createTestApp({ engine: 'sqlite', strategy: credential, globalGuard, controllers: [NotesController, BillingController], options: credential === 'jwt' ? { jwt: { secretKey: 'q8Vz3kR1xN7pL2mW9tY4bH6cJ0fG5dSa' } } : {} });
  const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
  return { t, paths: document.paths as never };
}

describe("the application's routes behind svc's credential, in the OpenAPI document", () => {
  describe('with globalGuard: true and the session credential', () => {
    let t: TestApp;
    let paths: Record<string, Record<string, Operation>>;
    beforeAll(async () => ({ t, paths } = await documentOf(true, 'session')));
    afterAll(() => t.close());

    it('a guarded route names the session cookie scheme and answers 401 UNAUTHENTICATED', () => {
      expect(paths['/notes'].get.security).toEqual([{ svcSession: [] }]);
      expect(paths['/notes'].get.responses['401'].content!['application/json'].examples).toEqual({
        UNAUTHENTICATED: { value: { statusCode: 401, error: 'Unauthorized', message: 'Authentication required', code: 'UNAUTHENTICATED' } },
      });
      expect(paths['/billing'].get.security).toEqual([{ svcSession: [] }]);
    });

    it('an @OptionalAuth() route takes the credential optionally, a @Public() one not at all', () => {
      expect(paths['/notes/feed'].get.security).toEqual([{}, { svcSession: [] }]);
      expect(paths['/notes/feed'].get.responses['401']).toBeUndefined();
      expect(paths['/notes/status'].get.security).toBeUndefined();
      expect(paths['/notes/status'].get.responses['401']).toBeUndefined();
    });
  });

  describe('without the global guard, with the jwt credential', () => {
    let t: TestApp;
    let paths: Record<string, Record<string, Operation>>;
    beforeAll(async () => ({ t, paths } = await documentOf(false, 'jwt')));
    afterAll(() => t.close());

    it('only the routes with CurrentUserGuard name the bearer scheme', () => {
      expect(paths['/billing'].get.security).toEqual([{ svcBearer: [] }]);
      expect(paths['/billing'].get.responses['401']).toBeDefined();
      for (const path of ['/notes', '/notes/feed', '/notes/status']) expect(paths[path].get.security).toBeUndefined();
    });
  });
});
