import { Controller, Get, type INestApplication, Module, Req, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Request } from 'express';
import request from 'supertest';
import type { AuthOptions, JwtSigningOptions } from '#svc/auth';
import { SvcJwtModule, type SvcJwtOptions } from '#svc/auth/passport';
import type { Engine, freshDatabase } from '../support/engines.js';
import { BASE_URL, createTestApp, TEST_SECRET, type TestApp, type TestClock } from '../support/test-app.js';
import { PASSWORD, tokensOf } from '../jwt/jwt-kit.js';
import { takePreparedRsaKey } from '../support/oauth/signing-keys.js';

export { claimsOf, forgeToken, headerOf, PASSWORD, tokensOf } from '../jwt/jwt-kit.js';
export const MINUTE = 60_000;

export type SigningAlgorithm = JwtSigningOptions['algorithm'];
export const ASYMMETRIC: readonly Exclude<SigningAlgorithm, 'HS256'>[] = ['EdDSA', 'ES256', 'RS256'];

/**
 * A PKCS #8 PEM private key for `algorithm` that no other call in this test file returns: generated,
 * but for RS256 one of the suites' prepared RSA keys while any is left (test/support/oauth/rsa-test-keys.ts:
 * generating one costs 0.2 to 1 s of CPU).
 */
export function privateKeyFor(algorithm: Exclude<SigningAlgorithm, 'HS256'>): string {
  const prepared = algorithm === 'RS256' ? takePreparedRsaKey() : undefined;
  if (prepared) return createPrivateKey({ key: prepared, format: 'jwk' }).export({ type: 'pkcs8', format: 'pem' }).toString();
  const pair =
    algorithm === 'EdDSA'
      ? generateKeyPairSync('ed25519')
      : algorithm === 'ES256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** A signing test app: the jwt credential with `jwt.signing`, listening on `port` (0: any). */
export interface SigningApp extends TestApp {
  url: string;
  port: number;
  signup(email: string): Promise<{ access: string; refresh: string; userId: string }>;
  login(email: string): request.Test;
  refresh(refreshToken: string): request.Test;
  me(accessToken: string): request.Test;
}

export async function createSigningApp(options: {
  engine: Engine;
  signing?: JwtSigningOptions;
  jwt?: Record<string, unknown>;
  options?: Partial<AuthOptions>;
  clock?: TestClock;
  port?: number;
  /** A database kept across restarts (dropped by the test, not at close). */
  database?: Awaited<ReturnType<typeof freshDatabase>>;
}): Promise<SigningApp> {
  const t = await createTestApp({
    engine: options.engine,
    strategy: 'jwt',
    options: { ...options.options, jwt: { secretKey: TEST_SECRET, ...(options.signing ? { signing: options.signing } : {}), ...options.jwt } },
    clock: options.clock,
    database: options.database && { options: options.database.options, drop: async () => undefined },
  });
  await new Promise<void>((resolve, reject) => {
    t.server.once('error', reject);
    t.server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const port = (t.server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const app: SigningApp = {
    ...t,
    url,
    port,
    signup: async (email) => {
      const response = await request(url).post('/auth/signup').send({ email, password: PASSWORD });
      if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${JSON.stringify(response.body)}`);
      return tokensOf(response);
    },
    login: (email) => request(url).post('/auth/login').send({ email, password: PASSWORD }),
    refresh: (refreshToken) => request(url).post('/auth/refresh').set('Cookie', [`svc_refresh=${refreshToken}`]),
    me: (accessToken) => request(url).get('/auth/me').set('Authorization', `Bearer ${accessToken}`),
  };
  return app;
}

@Controller()
class OrdersController {
  @Get('orders')
  @UseGuards(AuthGuard('svc-jwt'))
  orders(@Req() request: Request): { user: unknown } {
    return { user: request.user };
  }
}

/** A second service with no database: `SvcJwtModule` and one route behind `AuthGuard('svc-jwt')`. */
export interface ResourceServer {
  app: INestApplication;
  orders(accessToken?: string): request.Test;
  close(): Promise<void>;
}

/** `async`: the options through `SvcJwtModule.forRootAsync`'s factory. */
export async function createResourceServer(options: Partial<SvcJwtOptions> & { jwksUrl: string }, async = false): Promise<ResourceServer> {
  const all = { issuer: BASE_URL, audience: BASE_URL, ...options };
  @Module({ imports: [async ? SvcJwtModule.forRootAsync({ useFactory: async () => all }) : SvcJwtModule.forRoot(all)], controllers: [OrdersController] })
  class ResourceModule {}
  const app = await NestFactory.create(ResourceModule, { logger: false });
  await app.init();
  const server = app.getHttpServer();
  return {
    app,
    orders: (accessToken) => {
      const r = request(server).get('/orders');
      return accessToken === undefined ? r : r.set('Authorization', `Bearer ${accessToken}`);
    },
    close: () => app.close(),
  };
}
