import { type INestApplication, RequestMethod, type Type } from '@nestjs/common';
import { GUARDS_METADATA, HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/internal.js';
import { ModulesContainer } from '@nestjs/core';
import { ACCEPTS_API_KEY } from '../credentials/api-key-access.js';
import { AuthModule } from '../auth.module.js';
import { REQUIRED_PERMISSIONS } from '../authorization/authorization.constants.js';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { CurrentUserGuard } from '../credentials/current-user.guard.js';
import { freshAuthOf } from '../credentials/fresh-sign-in.js';
import { RESTRICTED_WHILE_IMPERSONATING } from '../credentials/impersonation-restriction.js';
import type { AuthErrorCode } from '../errors/error-codes.js';
import { AUTH_BODY_SCHEMA, type AuthBodySchema } from '../http/auth-body-schema.js';
import { BEFORE_HOOK } from '../http/before-hooks.interceptor.js';
import { routeHandlersOf } from '../http/route-handlers.js';
import { type RouteGate, SVC_ROUTE, type SvcRouteFacts, type SvcSuccessBody } from '../http/svc-route.decorator.js';
import { RATE_LIMIT_ROUTE, type RateLimitRoute } from '../rate-limit/rate-limit.constants.js';

/** What the document says about one route of the library. */
export interface AuthRoute {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Below the prefix, OpenAPI style (`/oauth2/{provider}/login`). */
  path: string;
  summary: string;
  body?: AuthBodySchema;
  /** The success answer: its status, and what its body is. */
  success: { status: number; description: string; body?: Exclude<SvcSuccessBody, 'login'> };
  /** Whether the route needs the credential (and so names the security scheme). */
  authenticated: boolean;
  refreshCookie?: boolean;
  pathParameters?: Record<string, readonly string[] | 'uuid'>;
  /** The `redirect` query parameter of the OAuth flows. */
  redirectQuery: boolean;
  errorRedirect?: boolean;
  errors: AuthErrorCode[];
  errorStatus?: Partial<Record<AuthErrorCode, number>>;
  /** The permissions the route needs (`x-svc-permissions`), as its `@Permissions` gives them. */
  permissions?: readonly string[];
  /** With `apiKeys`: the route serves an API key too (`/me`). */
  acceptsApiKey?: boolean;
  /** The age in seconds a sign-in may have on this route (`x-svc-fresh-auth`), as its `@RequireFreshAuth()` gives it. */
  freshAuthSeconds?: number;
}

/** A route of the library, as a client calls it. */
export interface AuthRouteName {
  method: AuthRoute['method'];
  /** Below the prefix, OpenAPI style (`/oauth2/{provider}/login`). */
  path: string;
}

const METHODS: Partial<Record<RequestMethod, AuthRoute['method']>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
};
/** Refusals any library route can give (outages). */
const COMMON: AuthErrorCode[] = ['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
/** A body's refusals (the body rules, then the schema's). */
const BODY_RULES: AuthErrorCode[] = ['VALIDATION_FAILED', 'MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
/** A before-hook's refusals. */
const HOOK: AuthErrorCode[] = ['HOOK_ABORTED', 'HOOK_FAILED'];

/**
 * The library's routes in this application, read from the controllers its module mounted: Nest's
 * route metadata (method, path, status, query parameters), svc's decorators (the body, the
 * credential guard, the rate limit, a before-hook) and each handler's `@SvcRoute()`. `served`: those
 * the configuration serves; `unserved`: mounted, but answering 404 under it (a `RouteGate` guard).
 */
export function libraryRoutes(app: INestApplication): { served: AuthRoute[]; unserved: AuthRouteName[] } {
  const config = app.get<AuthConfig>(AUTH_CONFIG);
  const modules = app.get(ModulesContainer);
  const controllers = [...modules.values()].filter((module) => module.metatype === AuthModule).flatMap((module) => [...module.controllers.values()].map((wrapper) => wrapper.metatype as Type));
  const served: AuthRoute[] = [];
  const unserved: AuthRouteName[] = [];
  for (const { controller, name, handler } of routeHandlersOf(controllers)) {
    const guards: unknown[] = [...(Reflect.getMetadata(GUARDS_METADATA, controller) ?? []), ...(Reflect.getMetadata(GUARDS_METADATA, handler) ?? [])];
    const route = routeOf(config, controller, name, handler, guards);
    if (guards.every((guard) => servedBy(guard, config))) served.push(route);
    else unserved.push({ method: route.method, path: route.path });
  }
  return { served, unserved };
}

/** Whether a guard lets the route be served under this configuration (a `RouteGate` decides; any other guard does). */
function servedBy(guard: unknown, config: AuthConfig): boolean {
  const gate = guard as Partial<RouteGate>;
  return typeof gate.servedWith !== 'function' || gate.servedWith(config);
}

function routeOf(config: AuthConfig, controller: Type, name: string, handler: Function, guards: unknown[]): AuthRoute {
  const declared = Reflect.getMetadata(SVC_ROUTE, handler) as SvcRouteFacts | ((config: AuthConfig) => SvcRouteFacts) | undefined;
  if (declared === undefined) throw new TypeError(`svc: ${controller.name}.${name} is a library route without @SvcRoute(): the OpenAPI document cannot describe it`);
  const facts = typeof declared === 'function' ? declared(config) : declared;
  const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
  const method = METHODS[requestMethod]!;
  const path = `/${String(Reflect.getMetadata(PATH_METADATA, handler))}`.replace(/:(\w+)/g, '{$1}');
  const successStatus = facts.success.status ?? (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? (method === 'post' ? 201 : 200);
  const successBody = facts.success.body === 'login' ? (config.credential === 'jwt' ? 'token' : 'user') : facts.success.body;
  const body = Reflect.getMetadata(AUTH_BODY_SCHEMA, handler) as AuthBodySchema | undefined;
  const authenticated = guards.includes(CurrentUserGuard);
  const limit = (Reflect.getMetadata(RATE_LIMIT_ROUTE, handler) ?? Reflect.getMetadata(RATE_LIMIT_ROUTE, controller)) as RateLimitRoute | undefined;
  const permissions = [...((Reflect.getMetadata(REQUIRED_PERMISSIONS, controller) ?? []) as string[]), ...((Reflect.getMetadata(REQUIRED_PERMISSIONS, handler) ?? []) as string[])];
  // Only an administrator's impersonation is refused there, and there is none without the admin section.
  const restricted = config.admin !== undefined && (Reflect.getMetadata(RESTRICTED_WHILE_IMPERSONATING, handler) ?? Reflect.getMetadata(RESTRICTED_WHILE_IMPERSONATING, controller)) === true;
  const acceptsApiKey = config.apiKeys !== undefined && Reflect.getMetadata(ACCEPTS_API_KEY, handler) === true;
  const fresh = freshAuthOf(handler, controller);
  const freshAuthSeconds = fresh === undefined ? undefined : (fresh ?? config.reauth.maxAgeSeconds);
  const errors: AuthErrorCode[] = [
    ...(body ? BODY_RULES : []),
    ...(body?.hook ? HOOK : []),
    ...(authenticated ? (['UNAUTHENTICATED'] as const) : []),
    ...(permissions.length > 0 ? (['PERMISSION_DENIED'] as const) : []),
    ...(restricted ? (['IMPERSONATION_RESTRICTED'] as const) : []),
    // docs/decisions/0032-api-keys.md: an API key is refused on every library route but /me.
    ...(config.apiKeys && !acceptsApiKey ? (['API_KEY_NOT_ALLOWED'] as const) : []),
    ...(freshAuthSeconds !== undefined ? (['REAUTH_REQUIRED'] as const) : []),
    ...(facts.errors ?? []),
    // docs/decisions/0023-cross-site-requests.md: a cookie-authenticated write is checked for its origin.
    ...(method === 'get' ? [] : (['CSRF_REJECTED'] as const)),
    ...(Reflect.getMetadata(BEFORE_HOOK, handler) ? HOOK : []),
    // The library's own limits count only with a `rateLimit` section (docs/guides/rate-limiting.md).
    ...(limit && !limit.skip && config.rateLimit ? (['RATE_LIMITED'] as const) : []),
    // RFC 3986 §2.1: a path parameter that is not valid percent-encoding is 400 VALIDATION_FAILED (docs/decisions/0004-errors.md).
    ...(path.includes('{') ? (['VALIDATION_FAILED'] as const) : []),
    ...COMMON,
  ];
  return {
    method,
    path,
    summary: facts.summary,
    ...(body ? { body } : {}),
    success: { status: successStatus, description: facts.success.description, ...(successBody ? { body: successBody } : {}) },
    authenticated,
    ...(facts.refreshCookie ? { refreshCookie: true } : {}),
    ...(facts.pathParameters ? { pathParameters: facts.pathParameters } : {}),
    redirectQuery: queryNamesOf(controller, name).includes('redirect'),
    ...(facts.errorRedirect ? { errorRedirect: true } : {}),
    errors: [...new Set(errors)],
    ...(facts.errorStatus ? { errorStatus: facts.errorStatus } : {}),
    ...(freshAuthSeconds !== undefined ? { freshAuthSeconds } : {}),
    ...(permissions.length > 0 ? { permissions: [...new Set(permissions)] } : {}),
    ...(acceptsApiKey ? { acceptsApiKey: true } : {}),
  };
}

/** The names of the query parameters the handler reads (`@Query('redirect')`). */
function queryNamesOf(controller: Type, name: string): string[] {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { data?: unknown }>;
  return Object.entries(args).flatMap(([key, arg]) => (key.split(':')[0] === String(RouteParamtypes.QUERY) && typeof arg.data === 'string' ? [arg.data] : []));
}

/** The library's routes the OpenAPI document covers in this application: those its configuration serves (`POST /signup`, ...). */
export function authRoutesOf(app: INestApplication): AuthRouteName[] {
  return libraryRoutes(app).served.map(({ method, path }) => ({ method, path }));
}
