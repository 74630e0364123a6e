import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { createDemoApp } from '../../src/demo-app.js';
import { readDemoConfig } from '../../src/demo-config.js';

const SECRET = 'q8Vz3kR1xN7pL2mW9tY4bH6cJ0fG5dSa';
const PROVIDERS = {
  OAUTH2_PROVIDERS: JSON.stringify([
    { name: 'acme', client_id: 'c', client_secret: 'Tq7vR2mXp9LwK4zN8bHc', authorization_url: 'https://acme.test/authorize', token_url: 'https://acme.test/token', userinfo_url: 'https://acme.test/me' },
  ]),
  OIDC_PROVIDERS: JSON.stringify([{ name: 'corp', issuer: 'https://sso.acme.test', client_id: 'c', client_secret: 'Tq7vR2mXp9LwK4zN8bHc' }]),
};

type ErrorResponse = {
  content?: { 'application/json': { schema: { allOf: [unknown, { properties: { code: { enum: string[] } } }] }; examples: Record<string, { value: Record<string, unknown> }> } };
};
type Document = { openapi: string; paths: Record<string, Record<string, Record<string, unknown>>>; components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, unknown> } };

/** GET /docs-json: an OpenAPI 3 document of the configured strategy's routes, with the real bodies. */
describe.each(['session', 'jwt', 'oauth2', 'oidc'] as const)('the demo OpenAPI document, AUTH_STRATEGY=%s', (strategy) => {
  let app: INestApplication;
  let document: Document;
  beforeAll(async () => {
    const config = readDemoConfig({ AUTH_STRATEGY: strategy, DATABASE_URL: 'sqlite::memory:', AUTH_SECRET: SECRET, RATE_LIMIT_BACKEND: 'memory', ...PROVIDERS });
    app = await createDemoApp(config, { logger: false });
    await app.init();
    document = (await request(app.getHttpServer()).get('/docs-json')).body;
  });
  afterAll(() => app?.close());

  it('is a valid OpenAPI 3 document', async () => {
    expect(document.openapi).toMatch(/^3\./);
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("lists every route of the strategy, and only those, with the credential's security scheme", () => {
    const routes = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/auth'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    // With a password, the demo's AUTH_EMAIL_VERIFICATION defaults to optional: the email routes too.
    const password = [
      'POST /auth/cancel-email-change',
      'POST /auth/change-email',
      'POST /auth/change-password',
      'POST /auth/confirm-email',
      'POST /auth/forgot-password',
      'POST /auth/login',
      'POST /auth/reset-password',
      'POST /auth/send-verification',
      'POST /auth/signup',
      'POST /auth/verify-email',
    ];
    // A provider method also serves linking (docs/guides/linking.md).
    const oauth = (method: string) => [
      `GET /auth/${method}/{provider}/callback`,
      `GET /auth/${method}/{provider}/login`,
      `POST /auth/${method}/{provider}/link`,
      `POST /auth/${method}/{provider}/reauth`,
      'GET /auth/accounts',
      'DELETE /auth/accounts/{method}/{provider}',
    ];
    // Beside a password the demo turns on two-step login, and passkeys (its base URL is on localhost).
    const twoStep = ['POST /auth/mfa/recovery-codes', 'POST /auth/mfa/totp/disable', 'POST /auth/mfa/totp/enable', 'POST /auth/mfa/totp/setup', 'POST /auth/mfa/verify'];
    const passkeys = [
      'DELETE /auth/passkeys/{id}',
      'GET /auth/passkeys',
      'PATCH /auth/passkeys/{id}',
      'POST /auth/passkeys/login',
      'POST /auth/passkeys/login/options',
      'POST /auth/passkeys/register',
      'POST /auth/passkeys/register/options',
    ];
    const login = strategy === 'session' || strategy === 'jwt' ? [...password, ...twoStep, ...passkeys] : oauth(strategy);
    const devices = ['GET /auth/sessions', 'DELETE /auth/sessions', 'DELETE /auth/sessions/{id}'];
    // The demo's administration (docs/demo.md): every strategy.
    const admin = ['GET /auth/admin/users', 'GET /auth/admin/users/{id}', 'POST /auth/admin/users/{id}/roles', 'DELETE /auth/admin/users/{id}/roles/{role}', 'POST /auth/admin/users/{id}/deactivate', 'POST /auth/admin/users/{id}/activate', 'POST /auth/admin/users/{id}/revoke-sessions', 'POST /auth/admin/users/{id}/password-reset', 'DELETE /auth/admin/users/{id}', 'POST /auth/admin/users/{id}/impersonate', 'POST /auth/admin/impersonation/stop'];
    // The activity log, on by default in the demo (AUTH_AUDIT): the user's own, and the administrators' list.
    const audit = ['GET /auth/me/activity', 'GET /auth/admin/audit'];
    const credential = [...(strategy === 'jwt' ? ['GET /auth/me', 'POST /auth/logout', 'POST /auth/refresh'] : ['GET /auth/me', 'POST /auth/logout']), 'DELETE /auth/me', ...devices];
    // Fresh sign-in (docs/guides/account-security.md): every strategy; with a passkey one, where passkeys are on.
    const reauth = ['POST /auth/reauth', ...(strategy === 'session' || strategy === 'jwt' ? ['POST /auth/reauth/passkey', 'POST /auth/reauth/passkey/options'] : [])];
    expect(routes).toEqual([...login, ...credential, ...admin, ...reauth, ...audit].sort());
    expect(document.paths['/auth/me'].get.security).toEqual([{ [strategy === 'jwt' ? 'svcBearer' : 'svcSession']: [] }]);
    expect(Object.keys(document.components.securitySchemes)).toEqual(strategy === 'jwt' ? ['svcBearer', 'svcRefreshCookie'] : ['svcSession']);
  });

  it('describes the user body from the @SvcReturned columns and the error body with the codes of each route', () => {
    expect(document.components.schemas.SvcUserBody).toMatchObject({
      properties: { id: { type: 'string', format: 'uuid' }, email: { type: 'string', format: 'email' }, displayName: { type: 'string', nullable: true }, plan: { type: 'string' } },
    });
    expect(Object.keys(document.components.schemas.SvcUserBody.properties as object)).not.toContain('internalNote');
    const me = document.paths['/auth/me'].get.responses as Record<string, { content: { 'application/json': { schema: unknown } } }>;
    expect(me['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcUserBody' });
    expect(me['401'].content['application/json'].schema).toEqual({
      allOf: [{ $ref: '#/components/schemas/SvcError' }, { type: 'object', properties: { code: { type: 'string', enum: ['UNAUTHENTICATED'] } } }],
    });
  });

  it('shows the real error body as each error example: its status, and a code that route answers with that status', () => {
    let examples = 0;
    for (const [path, item] of Object.entries(document.paths).filter(([path]) => path.startsWith('/auth'))) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, ErrorResponse>)) {
          const content = response.content?.['application/json'];
          if (Number(status) < 400 || !content) continue;
          const codes = content.schema.allOf[1].properties.code.enum;
          for (const [name, { value }] of Object.entries(content.examples)) {
            examples += 1;
            expect({ route: `${method} ${path}`, ...value }).toEqual({ route: `${method} ${path}`, statusCode: Number(status), error: expect.any(String), message: expect.anything(), code: name });
            expect(codes).toContain(value.code);
          }
        }
      }
    }
    expect(examples).toBeGreaterThan(10);
  });

  it('documents the devices routes: the list body, the id parameter and the answers', () => {
    const list = document.paths['/auth/sessions'].get as { responses: Record<string, { content?: { 'application/json': { schema: unknown } } }> };
    expect(list.responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcDevices' });
    expect(document.components.schemas.SvcDevices).toMatchObject({ type: 'array', items: { required: ['id', 'createdAt', 'lastUsedAt', 'userAgent', 'current'] } });
    const one = document.paths['/auth/sessions/{id}'].delete as { parameters: unknown[]; responses: Record<string, unknown> };
    expect(one.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }]);
    expect(Object.keys(one.responses).sort()).toEqual(['204', '400', '401', '403', '404', '500', '503']);
    expect(Object.keys(document.paths['/auth/sessions'].delete.responses as object).sort()).toEqual(['204', '401', '403', '500', '503']);
  });

  it('says what each field rule is, never the name of an internal validator', () => {
    const text = JSON.stringify(document);
    for (const internal of ['checked by', 'hasNoControlOrFormatCharacter', 'isPassword']) expect(text).not.toContain(internal);
  });

  if (strategy === 'session' || strategy === 'jwt') {
    it('documents the signup body from the schema the validator uses: email, password, displayName, never plan or internalNote', () => {
      const signup = document.paths['/auth/signup'].post as { requestBody: { content: { 'application/json': { schema: { $ref: string } } } }; responses: Record<string, unknown> };
      expect(signup.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SvcSignupRequest' });
      expect(document.components.schemas.SvcSignupRequest).toEqual({
        type: 'object',
        properties: {
          email: { type: 'string', format: 'email', maxLength: 320, description: 'email must not contain control or format characters (such as zero-width spaces or bidi overrides)' },
          password: { type: 'string', format: 'password', minLength: 8, description: expect.stringContaining('at most 72 bytes') },
          displayName: { type: 'string', minLength: 1, maxLength: 64 },
        },
        required: ['email', 'password'],
        additionalProperties: false,
      });
      expect(Object.keys(signup.responses).sort()).toEqual(['201', '400', '403', '409', '413', '415', '429', '500', '503']);
      expect(document.components.schemas[strategy === 'jwt' ? 'SvcTokenBody' : 'SvcUserBody']).toBeDefined();
    });
  } else {
    it('documents the provider parameter with the configured names', () => {
      const login = document.paths[`/auth/${strategy}/{provider}/login`].get as { parameters: { name: string; schema: { enum?: string[] } }[] };
      expect(login.parameters.find((parameter) => parameter.name === 'provider')!.schema.enum).toEqual([strategy === 'oauth2' ? 'acme' : 'corp']);
    });
  }
});
