import { Inject, Injectable, type OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Express } from 'express';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { authBodyGate } from './auth-body-gate.js';
import { authNotFound } from './auth-not-found.handler.js';
import { authRoutingError } from './auth-routing-error.handler.js';

interface RouterLayer {
  name?: string;
  route?: { path?: unknown };
}

interface ExpressRouter {
  stack: RouterLayer[];
  use(path: string, handler: unknown): unknown;
}

/** The layers of Express's body parsers (body-parser's function names). */
const BODY_PARSERS = new Set(['jsonParser', 'urlencodedParser', 'rawParser', 'textParser']);

/**
 * Puts `authBodyGate` in the Express router, under the prefix, right before the first body parser
 * (or route), so that it reads the body of every request Express will route there before any parser
 * does, and after the application's own middleware (CORS, helmet), whose headers its refusals
 * then carry. Nest registers its parsers and routes when the application initialises, before any
 * module hook runs, so the gate is moved into place, and `authNotFound` and `authRoutingError` go
 * after the routes (before Nest's own 404 and error handlers). Mounted with Express's own path
 * matching, they see exactly the requests the library's handlers would see, whatever the case of
 * the path.
 */
@Injectable()
export class AuthBodyGateInstaller implements OnModuleInit {
  private installed = false;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost?.httpAdapter;
    // A standalone application context serves no HTTP: nothing to guard.
    if (!adapter || this.installed) return;
    const router = (adapter.getInstance() as Express & { router?: ExpressRouter }).router;
    if (!router || !Array.isArray(router.stack)) {
      throw new TypeError('svc: AuthModule needs the Express platform (@nestjs/platform-express)');
    }
    assertRoutesUnderPrefix(router, this.config.prefix);
    router.use(this.config.prefix, authBodyGate(this.config.bodyLimitBytes));
    const gate = router.stack.pop()!;
    const firstReader = router.stack.findIndex((layer) => BODY_PARSERS.has(layer.name ?? '') || layer.route !== undefined);
    router.stack.splice(firstReader, 0, gate);
    router.use(this.config.prefix, authNotFound());
    router.use(this.config.prefix, authRoutingError());
    this.installed = true;
  }
}

/**
 * The gate guards the prefix, so svc's routes must be there: Nest's global prefix or URI versioning
 * would move them off it, where no body rule would hold. Fails closed, at startup.
 */
function assertRoutesUnderPrefix(router: ExpressRouter, prefix: string): void {
  const me = `${prefix}/me`.toLowerCase();
  if (router.stack.some((layer) => typeof layer.route?.path === 'string' && layer.route.path.toLowerCase() === me)) return;
  throw new TypeError(
    `svc: its routes are not under ${prefix}, where its request rules are enforced: a global prefix or URI versioning moved them. ` +
      `Exclude them, e.g. app.setGlobalPrefix('api', { exclude: ['${prefix.slice(1)}/{*path}'] }), and set AuthModule's prefix to the path you want`,
  );
}
