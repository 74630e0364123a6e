import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject, OperationObject, ParameterObject, ResponseObject, SchemaObject, SecuritySchemeObject } from '@nestjs/swagger';
import { ModulesContainer } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { applicationHandlers } from './application-handlers.js';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import { AUTH_ERRORS, type AuthErrorCode } from '../errors/error-codes.js';
import { AuthBodySchemas } from '../http/auth-body-schemas.js';
import { returnedColumnsOf } from '../users/svc-columns.decorators.js';
import { type AuthRoute, libraryRoutes } from './library-routes.js';
import { type JsonSchema, jsonSchemaOf } from './json-schema-of.js';
import { credentialSchemeNames, nativeClientComponents, withNativeClients } from './native-clients-openapi.js';

const PASSWORD_FIELDS = ['password', 'new_password'];
/** Every operation id of svc's routes starts with it. */
const SVC_OPERATION_PREFIX = 'svc_';
/** Examples of messages that are lists in real answers. */
const EXAMPLE_MESSAGES: Partial<Record<AuthErrorCode, string[]>> = { VALIDATION_FAILED: ['email must be an email address', 'property isAdmin should not exist'] };
/** The schema of each kind of success body. */
const SUCCESS_SCHEMAS: Record<string, string | undefined> = {
  user: 'SvcUserBody',
  token: 'SvcTokenBody',
  linkUrl: 'SvcLinkStart',
  accounts: 'SvcLinkedAccounts',
  devices: 'SvcDevices',
  mfaSetup: 'SvcMfaSetup',
  recoveryCodes: 'SvcRecoveryCodes',
  loginOrChallenge: 'SvcLoginOrChallenge',
  passkeyCreationOptions: 'SvcPasskeyCreationOptions',
  passkeyRequestOptions: 'SvcPasskeyRequestOptions',
  passkey: 'SvcPasskey',
  passkeys: 'SvcPasskeys',
  apiKeyCreated: 'SvcApiKeyCreated',
  apiKeys: 'SvcApiKeys',
  jwks: 'SvcJwks',
};

/** How `addAuthToDocument` documents svc's routes. */
export interface AuthDocumentOptions {
  /** The tag of svc's operations. @default 'svc' */
  tag?: string;
}

/**
 * Documents svc's routes in an application's OpenAPI document (one built with @nestjs/swagger's
 * `SwaggerModule.createDocument`): every route of the configured strategy under the prefix, its
 * request body from the very schema the validator uses (signup: `email`, `password` and the
 * `@SvcInput()` columns with their rules), its answers (user body, token body, the error body with
 * the codes the route can give), and the credential's security scheme; and what svc answers on the
 * application's own routes. Returns the document.
 */
export function addAuthToDocument(document: OpenAPIObject, app: INestApplication, options: AuthDocumentOptions = {}): OpenAPIObject {
  const tag = options.tag ?? 'svc';
  if (typeof tag !== 'string' || tag.length === 0) throw new TypeError(`svc: addAuthToDocument's tag must be a non-empty string, got ${JSON.stringify(tag)}`);
  const config = app.get<AuthConfig>(AUTH_CONFIG);
  const { served: routes, unserved } = libraryRoutes(app);
  const components = (document.components ??= {});
  const schemas = (components.schemas ??= {});
  Object.assign(schemas, {
    SvcUserBody: userBodySchema(app, config),
    SvcTokenBody: tokenBodySchema(),
    SvcError: errorSchema(),
    SvcDevices: devicesSchema(),
    ...(config.loginMethods.some((method) => method !== 'password') ? linkingSchemas(config) : {}),
    ...(config.mfa ? mfaSchemas(config) : {}),
    ...(config.passkeys ? passkeySchemas() : {}),
    ...(config.apiKeys ? apiKeySchemas() : {}),
    ...(config.jwt?.signing && config.jwt.signing.algorithm !== 'HS256' ? { SvcJwks: jwksSchema() } : {}),
    ...requestSchemas(app, config, routes),
    ...nativeClientComponents(config).schemas,
  });
  Object.assign((components.securitySchemes ??= {}), securitySchemes(config), nativeClientComponents(config).securitySchemes);
  const paths = (document.paths ??= {});
  // Each route's item replaces what scanning the library's controllers found there (`@Req()` bodies say nothing);
  // routes that share a path (GET and DELETE /sessions) share its item.
  const items = new Map<string, Record<string, OperationObject>>();
  for (const route of routes) {
    const path = `${config.prefix}${route.path}`;
    if (!items.has(path)) items.set(path, {});
    items.get(path)![route.method] = withNativeClients(operationOf(route, config, tag), route, config);
  }
  for (const [path, item] of items) paths[path] = item;
  // Mounted but answering 404 with this configuration: not in the document.
  for (const route of unserved) delete paths[`${config.prefix}${route.path}`];
  markApplicationRoutes(document, app, config);
  return document;
}

function operationOf(route: AuthRoute, config: AuthConfig, tag: string): OperationObject {
  const parameters: ParameterObject[] = Object.entries(route.pathParameters ?? {}).map(([name, values]) => ({
    name,
    in: 'path',
    required: true,
    schema: values === 'uuid' ? { type: 'string', format: 'uuid' } : { type: 'string', enum: [...values] },
  }));
  if (route.redirectQuery) {
    parameters.push({ name: 'redirect', in: 'query', required: false, description: 'Where to land after the login: a same-origin relative path', schema: { type: 'string' } });
  }
  if (route.refreshCookie) parameters.push({ name: config.cookie.refreshName, in: 'cookie', required: false, schema: { type: 'string' } });
  return {
    tags: [tag],
    summary: route.summary,
    operationId: `${SVC_OPERATION_PREFIX}${route.method}${route.path.replace(/[^A-Za-z0-9]+/g, '_')}`,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.body.name}` } } } } } : {}),
    responses: {
      [String(route.success.status)]: successOf(route, config),
      ...(route.errorRedirect ? { '303': { description: 'A failed callback: to the errorRedirect path with `?error=<CODE>`', headers: { Location: { schema: { type: 'string' } } } } } : {}),
      ...errorResponsesOf(route.errors, route.errorStatus),
    },
    ...(route.authenticated ? { security: [...credentialSchemeNames(config).map((scheme) => ({ [scheme]: [] })), ...(route.acceptsApiKey ? [{ svcApiKey: [] }] : [])] } : {}),
    ...(route.permissions ? { 'x-svc-permissions': route.permissions } : {}),
    // docs/guides/account-security.md: the age in seconds a sign-in may have here, else 403 REAUTH_REQUIRED.
    ...(route.freshAuthSeconds !== undefined ? { 'x-svc-fresh-auth': route.freshAuthSeconds } : {}),
  };
}

function successOf(route: AuthRoute, config: AuthConfig): ResponseObject {
  const json = (name: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } });
  const setsCookie = ['token', 'credential', 'loginOrChallenge'].includes(route.success.body ?? '') || (route.success.body === 'user' && route.method === 'post');
  const cookie = config.credential === 'jwt' ? config.cookie.refreshName : config.cookie.sessionName;
  return {
    description: route.success.description,
    ...(SUCCESS_SCHEMAS[route.success.body ?? ''] ? { content: json(SUCCESS_SCHEMAS[route.success.body!]!) } : {}),
    ...(setsCookie || route.success.status === 302
      ? { headers: { ...(setsCookie ? { 'Set-Cookie': { description: `${cookie}: HttpOnly credential cookie`, schema: { type: 'string' } } } : {}), ...(route.success.status === 302 ? { Location: { schema: { type: 'string' } } } : {}) } }
      : {}),
  };
}

/** One answer per status, its `code` narrowed to the codes the route gives with that status (`statusOf`: a route's own status for a code). */
function errorResponsesOf(codes: AuthErrorCode[], statusOf: Partial<Record<AuthErrorCode, number>> = {}): Record<string, ResponseObject> {
  // Each response shows the real body of each of its codes, so an example never reads `statusCode: 0`.
  const byStatus = new Map<number, AuthErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = statusOf[code] ?? AUTH_ERRORS[code][0];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: statusCodes.join(', '),
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: '#/components/schemas/SvcError' }, { type: 'object', properties: { code: { type: 'string', enum: statusCodes } } }] },
          examples: Object.fromEntries(statusCodes.map((code) => [code, { value: new AuthError(code, { message: EXAMPLE_MESSAGES[code], status }).getResponse() }])),
        },
      },
    };
  }
  return responses;
}

function requestSchemas(app: INestApplication, config: AuthConfig, routes: AuthRoute[]): Record<string, SchemaObject> {
  const used = routes.flatMap((route) => (route.body ? [route.body] : []));
  if (used.length === 0) return {};
  const classes = app.get(AuthBodySchemas);
  const schemas: Record<string, SchemaObject> = {};
  for (const body of used) {
    const schema = jsonSchemaOf(classes.schemaOf(body));
    for (const field of PASSWORD_FIELDS) {
      if (!schema.properties?.[field]) continue;
      // The password rule counts code points after NFKC and UTF-8 bytes: JSON Schema says the minimum only.
      schema.properties[field] = {
        type: 'string',
        format: 'password',
        minLength: config.password.minLength,
        description: `At least ${config.password.minLength} characters and at most ${config.password.maxLength} bytes of UTF-8 (after NFKC); no NUL.`,
      };
    }
    schemas[body.name] = schema as SchemaObject;
  }
  return schemas;
}

/** The user body: id, email and the `@SvcReturned()` columns, typed from the entity's columns. */
function userBodySchema(app: INestApplication, config: AuthConfig): SchemaObject {
  const metadata = app.get(DataSource).getMetadata(config.userEntity);
  const properties: Record<string, JsonSchema> = { id: { type: 'string', format: 'uuid' }, email: { type: 'string', format: 'email' } };
  for (const name of returnedColumnsOf(config.userEntity)) {
    const column = metadata.findColumnWithPropertyName(name);
    properties[name] = { ...columnSchema(column?.type), ...(column?.isNullable ? { nullable: true } : {}) };
  }
  if (config.emailVerification) properties.emailVerified = { type: 'boolean', description: 'Whether the user has proven they receive mail at their email' };
  if (config.mfa) {
    properties.mfa = { type: 'object', required: ['totp'], additionalProperties: false, properties: { totp: { type: 'boolean', description: 'Whether two-step login with an authenticator app is on' } } };
  }
  if (config.authorization) {
    properties.roles = { type: 'array', items: { type: 'string' }, description: 'The roles the user holds, sorted' };
    properties.permissions = { type: 'array', items: { type: 'string' }, description: "On /me only: the union of the roles' permissions, sorted, as the policy writes them" };
  }
  return { type: 'object', properties, required: Object.keys(properties).filter((name) => name !== 'permissions'), additionalProperties: false } as SchemaObject;
}

function columnSchema(type: unknown): JsonSchema {
  const name = typeof type === 'function' ? type.name.toLowerCase() : String(type).toLowerCase();
  if (/int|serial/.test(name)) return { type: 'integer' };
  if (/number|float|double|decimal|numeric|real/.test(name)) return { type: 'number' };
  if (/bool/.test(name)) return { type: 'boolean' };
  if (/date|time/.test(name)) return { type: 'string', format: 'date-time' };
  return { type: 'string' };
}

function tokenBodySchema(): SchemaObject {
  return {
    type: 'object',
    properties: { access_token: { type: 'string' }, token_type: { type: 'string', enum: ['bearer'] }, expires_in: { type: 'integer', description: 'Seconds until the access token expires' } },
    required: ['access_token', 'token_type', 'expires_in'],
  };
}

function errorSchema(): SchemaObject {
  return {
    type: 'object',
    properties: {
      statusCode: { type: 'integer' },
      error: { type: 'string' },
      message: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      code: { type: 'string', enum: Object.keys(AUTH_ERRORS) },
    },
    required: ['statusCode', 'error', 'message', 'code'],
  };
}

/** The answer of GET /sessions (docs/guides/devices.md). */
function devicesSchema(): SchemaObject {
  return {
    type: 'array',
    description: 'Newest first',
    items: {
      type: 'object',
      required: ['id', 'createdAt', 'lastUsedAt', 'userAgent', 'current'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', format: 'uuid' },
        createdAt: { type: 'string', format: 'date-time' },
        lastUsedAt: { type: 'string', format: 'date-time' },
        userAgent: { type: 'string', nullable: true, maxLength: 512 },
        current: { type: 'boolean', description: "Whether it is this request's own credential" },
      },
    },
  };
}

/** The bodies of the passkey routes (docs/guides/passkeys.md); the WebAuthn options as WebAuthn L3 §5.1.8 writes them in JSON. */
function passkeySchemas(): Record<string, SchemaObject> {
  const passkey = (required: string[]): SchemaObject => ({
    type: 'object',
    required,
    additionalProperties: false,
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: { type: 'string', maxLength: 64 },
      createdAt: { type: 'string', format: 'date-time' },
      lastUsedAt: { type: 'string', format: 'date-time', nullable: true, description: 'The last login with it; null before the first' },
    },
  });
  const webauthn = (description: string, required: string[]): SchemaObject => ({ type: 'object', description, required, properties: Object.fromEntries(required.map((name) => [name, {}])) });
  return {
    SvcPasskeyCreationOptions: webauthn('PublicKeyCredentialCreationOptionsJSON: pass to navigator.credentials.create() (PublicKeyCredential.parseCreationOptionsFromJSON)', [
      'challenge',
      'rp',
      'user',
      'pubKeyCredParams',
      'timeout',
      'excludeCredentials',
      'authenticatorSelection',
      'attestation',
    ]),
    SvcPasskeyRequestOptions: webauthn('PublicKeyCredentialRequestOptionsJSON: pass to navigator.credentials.get() (PublicKeyCredential.parseRequestOptionsFromJSON)', [
      'challenge',
      'rpId',
      'timeout',
      'userVerification',
    ]),
    SvcPasskey: passkey(['id', 'name', 'createdAt']),
    SvcPasskeys: { type: 'array', description: 'Oldest first', items: passkey(['id', 'name', 'createdAt', 'lastUsedAt']) },
  };
}

/** The bodies of the API key routes (docs/guides/machine-access.md): the key itself only in the creation's answer. */
function apiKeySchemas(): Record<string, SchemaObject> {
  const facts = {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string', maxLength: 64 },
    scopes: { type: 'array', items: { type: 'string' }, description: 'Permissions the key may use, within its owner\'s' },
    createdAt: { type: 'string', format: 'date-time' },
    expiresAt: { type: 'string', format: 'date-time', nullable: true, description: 'null: the key does not expire' },
  } as const;
  return {
    SvcApiKeyCreated: {
      type: 'object',
      required: ['id', 'name', 'key', 'scopes', 'createdAt', 'expiresAt'],
      additionalProperties: false,
      properties: { ...facts, key: { type: 'string', description: 'The key: shown in this answer only, stored as its SHA-256' } },
    },
    SvcApiKeys: {
      type: 'array',
      description: 'Newest first',
      items: {
        type: 'object',
        required: ['id', 'name', 'scopes', 'createdAt', 'expiresAt', 'lastUsedAt', 'start'],
        additionalProperties: false,
        properties: {
          ...facts,
          lastUsedAt: { type: 'string', format: 'date-time', nullable: true, description: 'To the minute; null before the first use' },
          start: { type: 'string', description: 'The prefix and the first 4 random characters of the key' },
        },
      },
    },
  };
}

/** The bodies of the linking routes (docs/guides/linking.md). */
function linkingSchemas(config: AuthConfig): Record<string, SchemaObject> {
  const methods = config.loginMethods.filter((method) => method !== 'password');
  return {
    SvcLinkStart: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri', description: "The provider's authorization URL: open it in the browser" } } },
    SvcLinkedAccounts: {
      type: 'object',
      required: ['password', 'identities'],
      properties: {
        password: { type: 'boolean', description: 'Whether the user can sign in with a password' },
        identities: {
          type: 'array',
          items: {
            type: 'object',
            required: ['method', 'provider', 'email', 'createdAt'],
            properties: {
              method: { type: 'string', enum: methods },
              provider: { type: 'string' },
              email: { type: 'string', nullable: true },
              createdAt: { type: 'string', format: 'date-time' },
            },
          },
        },
      },
    },
  };
}

/** The bodies of the two-step routes (docs/guides/two-step.md). */
function mfaSchemas(config: AuthConfig): Record<string, SchemaObject> {
  const recoveryCodes: SchemaObject = { type: 'array', minItems: 10, maxItems: 10, items: { type: 'string', example: 'abcd-efgh-jkmn-pqrs-tuvw-xyz2' } };
  return {
    SvcMfaSetup: {
      type: 'object',
      required: ['secret', 'otpauthUrl', 'qrSvg'],
      properties: {
        secret: { type: 'string', description: 'The secret in base32 (RFC 4648), for typing into the app; never shown again' },
        otpauthUrl: { type: 'string', description: 'otpauth://totp/... (SHA1, 6 digits, 30 s)' },
        qrSvg: { type: 'string', description: 'The otpauth URL as a QR code, an SVG document' },
      },
    },
    SvcRecoveryCodes: { type: 'object', required: ['recoveryCodes'], properties: { recoveryCodes: { ...recoveryCodes, description: 'Single-use codes, shown this once' } } },
    SvcLoginOrChallenge: {
      oneOf: [
        { $ref: `#/components/schemas/${config.credential === 'jwt' ? 'SvcTokenBody' : 'SvcUserBody'}` },
        {
          type: 'object',
          required: ['mfaRequired', 'methods'],
          description: `A second factor is owed: no credential; the ${config.cookie.mfaChallengeName} cookie holds the challenge for POST ${config.prefix}/mfa/verify`,
          properties: { mfaRequired: { type: 'boolean', enum: [true] }, methods: { type: 'array', items: { type: 'string', enum: ['totp', 'recovery_code'] } } },
        },
      ],
    },
  };
}

function securitySchemes(config: AuthConfig): Record<string, SecuritySchemeObject> {
  const credential: Record<string, SecuritySchemeObject> =
    config.credential === 'jwt'
      ? {
          svcBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          svcRefreshCookie: { type: 'apiKey', in: 'cookie', name: config.cookie.refreshName },
        }
      : { svcSession: { type: 'apiKey', in: 'cookie', name: config.cookie.sessionName } };
  // docs/guides/machine-access.md: an API key is a bearer token of its own, accepted where the credential is, and on /me.
  if (config.apiKeys) credential.svcApiKey = { type: 'http', scheme: 'bearer', description: `An API key (${config.apiKeys.prefix}...) created with POST ${config.prefix}/api-keys` };
  return credential;
}

/**
 * What svc answers on the application's own routes: behind its credential, the security scheme and
 * 401 `UNAUTHENTICATED` (those with `@UseGuards(CurrentUserGuard)`, and with `globalGuard: true` every
 * route but the `@Public()` ones; `@OptionalAuth()` ones: the credential is optional), and with the
 * session cookie 403 `CSRF_REJECTED` on the ones that change state (docs/decisions/0023-cross-site-requests.md);
 * 403 `EMAIL_NOT_VERIFIED` with `@RequireVerifiedEmail()`; 429 `RATE_LIMITED` with `@RateLimit()`;
 * 403 `PERMISSION_DENIED` and `x-svc-roles` / `x-svc-permissions` with `@Roles()` / `@Permissions()`;
 * 403 `REAUTH_REQUIRED` and `x-svc-fresh-auth` (seconds) with `@RequireFreshAuth()`.
 * 403 `ORGANIZATION_REQUIRED`, `PERMISSION_DENIED` and `x-svc-org-roles` / `x-svc-org-permissions` with `@OrgRoles()` / `@OrgPermissions()`.
 * Operations are found by the operation ids @nestjs/swagger gives by default (`<Controller>_<method>`).
 */
function markApplicationRoutes(document: OpenAPIObject, app: INestApplication, config: AuthConfig): void {
  // docs/guides/machine-access.md: with API keys, a key is one more way to present a credential.
  const schemes = [...credentialSchemeNames(config).map((scheme) => ({ [scheme]: [] })), ...(config.apiKeys ? [{ svcApiKey: [] }] : [])];
  const operations = new Map<string, OperationObject>();
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, OperationObject>)) {
      if (operation?.operationId && !operation.operationId.startsWith(SVC_OPERATION_PREFIX)) operations.set(operation.operationId, operation);
    }
  }
  for (const handler of applicationHandlers(app.get(ModulesContainer), config.globalGuard)) {
    const operation = operations.get(`${handler.controller}_${handler.method}`);
    if (!operation) continue;
    if (handler.access) operation.security = handler.access === 'optional' ? [{}, ...schemes] : schemes;
    const codes: AuthErrorCode[] = [
      ...(handler.access === 'required' ? (['UNAUTHENTICATED'] as const) : []),
      // The cookie credential's writes are checked for their origin; a bearer token is not sent by the browser on its own.
      ...(handler.access && handler.changesState && config.credential === 'session' ? (['CSRF_REJECTED'] as const) : []),
      ...(handler.verifiedEmail ? (['EMAIL_NOT_VERIFIED'] as const) : []),
      ...(handler.rateLimited ? (['RATE_LIMITED'] as const) : []),
      ...(handler.orgRoles.length > 0 || handler.orgPermissions.length > 0 ? (['ORGANIZATION_REQUIRED'] as const) : []),
      ...(handler.roles.length > 0 || handler.permissions.length > 0 || handler.orgRoles.length > 0 || handler.orgPermissions.length > 0 ? (['PERMISSION_DENIED'] as const) : []),
      ...(handler.freshAuth !== undefined ? (['REAUTH_REQUIRED'] as const) : []),
    ];
    if (codes.length > 0) operation.responses = { ...operation.responses, ...errorResponsesOf(codes) };
    // docs/guides/roles-and-permissions.md: what the route requires, for clients and reviewers.
    if (handler.roles.length > 0) (operation as OperationObject & Record<string, unknown>)['x-svc-roles'] = handler.roles;
    if (handler.permissions.length > 0) (operation as OperationObject & Record<string, unknown>)['x-svc-permissions'] = handler.permissions;
    if (handler.freshAuth !== undefined) (operation as OperationObject & Record<string, unknown>)['x-svc-fresh-auth'] = handler.freshAuth ?? config.reauth.maxAgeSeconds;
    // docs/guides/organizations.md: what the route requires of the role in the active organization.
    if (handler.orgRoles.length > 0) (operation as OperationObject & Record<string, unknown>)['x-svc-org-roles'] = handler.orgRoles;
    if (handler.orgPermissions.length > 0) (operation as OperationObject & Record<string, unknown>)['x-svc-org-permissions'] = handler.orgPermissions;
  }
}

/** The JWK Set of `<prefix>/jwks` (RFC 7517 §5): public keys only, each with `kid`, `alg` and `use`. */
function jwksSchema(): SchemaObject {
  const key: SchemaObject = {
    type: 'object',
    required: ['kty', 'kid', 'alg', 'use'],
    properties: { kty: { type: 'string' }, kid: { type: 'string' }, alg: { type: 'string', enum: ['EdDSA', 'ES256', 'RS256'] }, use: { type: 'string', enum: ['sig'] } },
  };
  return { type: 'object', required: ['keys'], properties: { keys: { type: 'array', items: key } } };
}
