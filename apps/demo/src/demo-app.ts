import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { addAuthToDocument } from '#svc/auth/openapi';
import { DemoModule } from './demo.module.js';
import type { DemoConfig } from './demo-config.js';
import { TimedExpressAdapter } from './timed-express.adapter.js';

/** Builds the demo application from a configuration (also used by the tests; bench/app adds its comparison routes to the demo's module). */
export async function createDemoApp(config: DemoConfig, options: { logger?: false } = {}): Promise<INestApplication> {
  if (config.database.type === 'better-sqlite3' && config.database.database !== ':memory:') {
    mkdirSync(dirname(config.database.database), { recursive: true });
  }
  const adapter = new TimedExpressAdapter(config.requestTimeouts);
  const app = await NestFactory.create<NestExpressApplication>(DemoModule.register(config), adapter, { logger: options.logger ?? ['log', 'warn', 'error'] });
  return configureDemoApp(app);
}

/**
 * What the demo adds to its Nest application: the headers every response carries and /docs.
 * Exported for tests that compile DemoModule with providers of their own (a recording mailer) and
 * must serve what `npm start` serves.
 */
export function configureDemoApp<App extends NestExpressApplication>(app: App): App {
  // Nothing tells a client which framework answers (OWASP HTTP Headers Cheat Sheet).
  app.disable('x-powered-by');
  // No page of the demo may be framed by another site (clickjacking; OWASP Clickjacking Defense
  // Cheat Sheet): /docs included. The page's own, fuller policy replaces this one.
  app.use((_request: unknown, response: { setHeader(name: string, value: string): void }, next: () => void) => {
    response.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
    response.setHeader('X-Frame-Options', 'DENY');
    next();
  });
  const document = addAuthToDocument(SwaggerModule.createDocument(app, new DocumentBuilder().setTitle('svc demo').setVersion('0.1.0').build()), app);
  SwaggerModule.setup('docs', app, document);
  return app;
}
