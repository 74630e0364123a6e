import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { addAuthToDocument } from '#svc/auth/openapi';
import { type AccountApp, createAccountApp } from '../account-security-mail-kit.js';

// DELETE /me in the OpenAPI document: beside GET /me, with the credential's security and its refusals.
describe.each(['session', 'jwt'] as const)('DELETE /me in the OpenAPI document, %s credential', (credential) => {
  let app: AccountApp;
  beforeAll(async () => {
    app = await createAccountApp('sqlite', credential);
  });
  afterAll(() => app?.close());

  it('documents 204 and the refusals 401, 403 (IMPERSONATION_RESTRICTED) and 409 (LAST_ADMIN)', () => {
    const document = addAuthToDocument(SwaggerModule.createDocument(app.app, new DocumentBuilder().build()), app.app);
    const item = document.paths['/auth/me'];
    expect(Object.keys(item).sort()).toEqual(['delete', 'get']);
    const operation = item.delete!;
    expect(operation.security).toEqual(item.get!.security);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['204', '401', '403', '409']));
    const codesOf = (status: string) => JSON.stringify(operation.responses[status]);
    expect(codesOf('403')).toContain('IMPERSONATION_RESTRICTED');
    expect(codesOf('409')).toContain('LAST_ADMIN');
  });
});
