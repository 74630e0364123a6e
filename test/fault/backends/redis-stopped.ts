import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { once } from 'node:events';
import { cookieOf, type RawRequest, type RawResponse } from '../../support/raw-http.js';
import { createFaultApp, type FaultApp, PASSWORD } from '../support/fault-app.js';
import { expectServiceUnavailable, within } from '../support/fault-checks.js';
import { RedisServerProcess, redisServerInstalled } from '../support/redis-server-process.js';
import { describeWithRedisServer } from '../support/required-services.js';
import { TEST_SECRET } from '../../support/test-app.js';

/** The limiter gives a backend 2 s (docs/guides/rate-limiting.md); an answer later than this is a hang. */
const PROMPT_MS = 3000;
const WARNING = 'rate-limit backend unavailable';

describeWithRedisServer('Redis stopped and started again under the Redis rate limiter (docs/guides/rate-limiting.md)', redisServerInstalled(), () => {
  describe.each(['deny', 'allow'] as const)("onBackendError: '%s'", (onBackendError) => {
    let redis: RedisServerProcess;
    let limiterClient: Redis;
    let inspector: Redis;
    let app: FaultApp;
    let email: string;

    beforeAll(async () => {
      redis = await RedisServerProcess.start();
      // The demo's client options: fail fast instead of queueing while Redis is away.
      limiterClient = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 1, enableOfflineQueue: false });
      limiterClient.on('error', () => undefined);
      // Connected before the first request: a client that fails fast refuses commands until it is.
      if (limiterClient.status !== 'ready') await once(limiterClient, 'ready');
      inspector = new Redis({ host: '127.0.0.1', port: redis.port, lazyConnect: true });
      inspector.on('error', () => undefined);
      app = await createFaultApp({
        engine: 'sqlite',
        strategy: 'session',
        options: { secret: TEST_SECRET, rateLimit: { backend: 'redis', redis: limiterClient, max: 1000, windowSeconds: 60, onBackendError } },
      });
      email = (await app.signup(`limited-${onBackendError}@fault.test`)).email;
    });
    afterAll(async () => {
      await app?.close();
      limiterClient?.disconnect();
      inspector?.disconnect();
      await redis?.stop();
    });

    const forgot = (): RawRequest => app.post('/auth/forgot-password', { email: 'nobody@fault.test' });
    const login = (): RawRequest => app.post('/auth/login', { email, password: PASSWORD });
    const promptly = (request: RawRequest): Promise<RawResponse> => within(PROMPT_MS, `${request.path} while Redis is stopped`, app.send(request));
    const counters = async () => (await inspector.keys('svc:rate-limit:*')).length;

    it('counts in Redis while it runs', async () => {
      expect((await app.send(forgot())).status).toBe(202);
      expect((await app.send(login())).status).toBe(200);
      expect(await counters()).toBeGreaterThan(0);
    });

    it(`while Redis is stopped: ${onBackendError === 'deny' ? '503 SERVICE_UNAVAILABLE, no session created' : 'requests go through, with far fewer warnings than requests'}`, async () => {
      await redis.stop();
      const sessionsBefore = (await app.rows()).sessions;
      const requests = 50;
      const responses: RawResponse[] = [];
      for (let i = 0; i < requests; i++) responses.push(await promptly(i % 10 === 0 ? login() : forgot()));
      if (onBackendError === 'deny') {
        for (const response of responses) expectServiceUnavailable(response);
        expect((await app.rows()).sessions).toEqual(sessionsBefore);
      } else {
        expect(responses.map((response) => response.status)).toEqual(Array.from({ length: requests }, (_, i) => (i % 10 === 0 ? 200 : 202)));
        expect(responses.filter((response) => response.status === 200).every((response) => cookieOf(response, 'svc_session'))).toBe(true);
        const warnings = app.logger.matching('warn', WARNING).length;
        expect(warnings).toBeGreaterThan(0);
        // Each request is checked twice (address and account): 100 failed checks.
        expect(warnings * 10).toBeLessThanOrEqual(requests);
      }
      expect(app.logger.withStackFrames()).toEqual([]);
    });

    it('once Redis is back on the same port, the limiter counts there again without a restart', async () => {
      await redis.startAgain();
      const deadline = Date.now() + 10_000;
      // ioredis reconnects on its own schedule (at most 2 s between attempts): wait for a request that is counted.
      for (;;) {
        const response = await promptly(forgot());
        if (response.status === 202 && (await counters()) > 0) break;
        if (onBackendError === 'deny') expectServiceUnavailable(response);
        if (Date.now() > deadline) throw new Error('the limiter did not count in Redis again within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const logged = app.logger.lines.length;
      const after = await app.send(login());
      expect(after.status).toBe(200);
      expect(cookieOf(after, 'svc_session')).toEqual(expect.any(String));
      expect(app.logger.lines.slice(logged).filter((line) => line.text.includes(WARNING))).toEqual([]);
    });
  });
});
