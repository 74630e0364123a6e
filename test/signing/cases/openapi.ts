import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Validator } from '@seriousme/openapi-schema-validator';
import { addAuthToDocument } from '#svc/auth/openapi';
import { createSigningApp, privateKeyFor, type SigningApp } from '../signing-kit.js';

// GET /jwks is in the OpenAPI document exactly when it is served.
describe('/auth/jwks in the OpenAPI document', () => {
  let signed: SigningApp;
  let hmac: SigningApp;
  beforeAll(async () => {
    [signed, hmac] = await Promise.all([
      createSigningApp({ engine: 'sqlite', signing: { algorithm: 'RS256', keys: [{ kid: 'rs-1', privateKey: privateKeyFor('RS256') }] } }),
      createSigningApp({ engine: 'sqlite' }),
    ]);
  });
  afterAll(async () => {
    await signed?.close();
    await hmac?.close();
  });

  it('is documented with the JWK Set schema under an asymmetric algorithm, and the document is valid OpenAPI', async () => {
    const document = addAuthToDocument(SwaggerModule.createDocument(signed.app, new DocumentBuilder().build()), signed.app);
    const operation = document.paths['/auth/jwks']?.get;
    expect(operation?.responses['200']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/SvcJwks' } } } });
    expect(document.components?.schemas?.SvcJwks).toBeDefined();
    const result = await new Validator().validate(JSON.parse(JSON.stringify(document)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is left out with HMAC', () => {
    const document = addAuthToDocument(SwaggerModule.createDocument(hmac.app, new DocumentBuilder().build()), hmac.app);
    expect(document.paths['/auth/jwks']).toBeUndefined();
  });
});
