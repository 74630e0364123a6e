import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Delete, Get, Post, UseGuards } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { CurrentUserGuard, OptionalAuth, Public, RateLimit, RequireVerifiedEmail } from '#svc/auth';
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

/** Reading is free, writing takes a verified email; creating is limited; a public form is limited too. */
@Controller('projects')
@UseGuards(CurrentUserGuard)
class ProjectsController {
  @Get()
  list() {
    return [];
  }

  @Post()
  @RequireVerifiedEmail()
  @RateLimit({ max: 20, windowSeconds: 3600, by: 'user' })
  create() {
    return {};
  }

  @Delete()
  remove() {
    return {};
  }
}

@Controller('contact')
class ContactController {
  @Post()
  @RateLimit()
  send() {
    return {};
  }
}

type Operation = { tags?: string[]; security?: unknown[]; responses: Record<string, { content?: { 'application/json': { examples: Record<string, { value: unknown }> } } }> };

async function documentOf(globalGuard: boolean, credential: 'session' | 'jwt'): Promise<{ t: TestApp; paths: Record<string, Record<string, Operation>> }> {
  const t = await createTestApp({ engine: 'sqlite', strategy: credential, globalGuard, controllers: [NotesController, BillingController], options: credential === 'jwt' ? { jwt: { secretKey: 'q8Vz3kR1xN7pL2mW9tY4bH6cJ0fG5dSa' } } : {} });
  const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
  return { t, paths: document.paths as never };
}

const example = (status: number, error: string, message: string, code: string) => ({ [code]: { value: { statusCode: status, error, message, code } } });

describe("what svc answers on the application's routes (limits, cross-site writes, verified emails), and svc's tag", () => {
  async function documentWith(credential: 'session' | 'jwt', tag?: string) {
    const t = await createTestApp({
      engine: 'sqlite',
      strategy: credential,
      controllers: [ProjectsController, ContactController],
      options: { emailVerification: {}, rateLimit: {}, ...(credential === 'jwt' ? { jwt: { secretKey: 'q8Vz3kR1xN7pL2mW9tY4bH6cJ0fG5dSa' } } : {}) },
    });
    const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app, tag === undefined ? undefined : { tag });
    return { t, paths: document.paths as unknown as Record<string, Record<string, Operation>> };
  }

  it('session: a guarded write answers 403 CSRF_REJECTED (and EMAIL_NOT_VERIFIED behind @RequireVerifiedEmail()), a limited route 429 RATE_LIMITED; svc\'s operations carry the tag given', async () => {
    const { t, paths } = await documentWith('session', 'auth');
    try {
      const create = paths['/projects'].post;
      expect(Object.keys(create.responses).sort()).toEqual(['201', '401', '403', '429']);
      expect(create.security).toEqual([{ svcSession: [] }]);
      expect(create.responses['403'].content!['application/json'].examples).toEqual({
        ...example(403, 'Forbidden', 'Cross-site request refused', 'CSRF_REJECTED'),
        ...example(403, 'Forbidden', 'Verify your email before you log in', 'EMAIL_NOT_VERIFIED'),
      });
      expect(create.responses['429'].content!['application/json'].examples).toEqual(example(429, 'Too Many Requests', 'Too many requests', 'RATE_LIMITED'));
      expect(Object.keys(paths['/projects'].delete.responses['403'].content!['application/json'].examples)).toEqual(['CSRF_REJECTED']);
      expect(paths['/projects'].get.responses['403']).toBeUndefined();
      // Not guarded: no scheme, no 401, no cross-site check; limited all the same.
      const contact = paths['/contact'].post;
      expect([contact.security, contact.responses['401'], contact.responses['403']]).toEqual([undefined, undefined, undefined]);
      expect(Object.keys(contact.responses['429'].content!['application/json'].examples)).toEqual(['RATE_LIMITED']);
      expect(paths['/auth/login'].post.tags).toEqual(['auth']);
      expect(paths['/projects'].get.tags).not.toContain('auth');
    } finally {
      await t.close();
    }
  });

  it('jwt: a bearer token is no cookie, so no cross-site answer; the tag is svc by default', async () => {
    const { t, paths } = await documentWith('jwt');
    try {
      expect(Object.keys(paths['/projects'].post.responses['403'].content!['application/json'].examples)).toEqual(['EMAIL_NOT_VERIFIED']);
      expect(paths['/projects'].delete.responses['403']).toBeUndefined();
      expect(paths['/auth/login'].post.tags).toEqual(['svc']);
    } finally {
      await t.close();
    }
  });
});

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
