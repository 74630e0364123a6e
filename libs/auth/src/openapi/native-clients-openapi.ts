import type { OperationObject, ParameterObject, ReferenceObject, RequestBodyObject, ResponseObject, SchemaObject, SecuritySchemeObject } from '@nestjs/swagger';
import type { AuthConfig } from '../config/auth-config.js';
import type { AuthRoute } from './library-routes.js';

/** The bodies a credential-issuing route answers with, in the document's schema names. */
const ISSUING_BODIES = new Set(['user', 'token', 'loginOrChallenge']);

/** The security schemes of the credential, and with native clients the bearer token beside it (docs/guides/machine-access.md). */
export function credentialSchemeNames(config: AuthConfig): string[] {
  if (config.credential === 'jwt') return ['svcBearer'];
  return config.nativeClients ? ['svcSession', 'svcBearer'] : ['svcSession'];
}

/** What native clients add to the components: their token body, the refresh request, and (session module) the bearer scheme. */
export function nativeClientComponents(config: AuthConfig): { schemas: Record<string, SchemaObject>; securitySchemes: Record<string, SecuritySchemeObject> } {
  if (!config.nativeClients) return { schemas: {}, securitySchemes: {} };
  return {
    schemas: {
      SvcNativeTokenBody: {
        type: 'object',
        description: 'The answer to a native client (X-Svc-Client: native): no cookie is set',
        properties: {
          access_token: { type: 'string' },
          token_type: { type: 'string', enum: ['bearer'] },
          expires_in: { type: 'integer', description: 'Seconds until the access token expires' },
          refresh_token: { type: 'string', description: 'Single use: POST it to /refresh for the next pair' },
        },
        required: ['access_token', 'token_type', 'expires_in', 'refresh_token'],
      },
      SvcNativeRefreshRequest: { type: 'object', additionalProperties: false, properties: { refresh_token: { type: 'string', minLength: 1, maxLength: 512 } } },
    },
    securitySchemes: config.credential === 'jwt' ? {} : { svcBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
  };
}

const NATIVE_HEADER: ParameterObject = {
  name: 'X-Svc-Client',
  in: 'header',
  required: false,
  description: '`native`: the credential comes in the body (SvcNativeTokenBody), no cookie (docs/guides/machine-access.md)',
  schema: { type: 'string', enum: ['native'] },
};

/**
 * A library operation as native clients see it: the `X-Svc-Client` header and the native token body
 * on the POST routes that issue a credential, and `{ refresh_token }` on /refresh and /logout.
 */
export function withNativeClients(operation: OperationObject, route: AuthRoute, config: AuthConfig): OperationObject {
  if (!config.nativeClients || route.method !== 'post') return operation;
  const takesRefreshToken = route.path === '/refresh' || route.path === '/logout';
  const issues = takesRefreshToken ? route.path === '/refresh' : ISSUING_BODIES.has(route.success.body ?? '');
  if (!issues && !takesRefreshToken) return operation;
  const status = String(route.success.status);
  const success = operation.responses[status] as ResponseObject;
  const own = success.content?.['application/json']?.schema;
  const native: ReferenceObject = { $ref: '#/components/schemas/SvcNativeTokenBody' };
  return {
    ...operation,
    parameters: [...(operation.parameters ?? []), NATIVE_HEADER],
    ...(takesRefreshToken && !operation.requestBody
      ? { requestBody: { required: false, content: { 'application/json': { schema: { $ref: '#/components/schemas/SvcNativeRefreshRequest' } } } } satisfies RequestBodyObject }
      : {}),
    responses: issues ? { ...operation.responses, [status]: { ...success, content: { 'application/json': { schema: own ? { oneOf: [own, native] } : native } } } } : operation.responses,
  };
}
