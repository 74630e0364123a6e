import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { AUTH_CLOCK, type Clock } from '#svc/auth';
import { lowCostPasswordHasher } from '#svc/auth/testing';
import { configureDemoApp } from '../../../src/demo-app.js';
import { readDemoConfig } from '../../../src/demo-config.js';
import { DemoEventLog } from '../../../src/demo-event-log.js';
import { DemoModule } from '../../../src/demo.module.js';
import { TimedExpressAdapter } from '../../../src/timed-express.adapter.js';
import type { DemoProcess } from '../../demo/demo-process.js';
import { reserveLoopbackPort } from '../../../../../test/support/listen.js';

export const DEMO_SECRET = 'b7Xq2Lm9Rv4Tz8Kc1Nw6Hp3Jf5Gd0SaE';

/** The demo's EVENT/MAIL printer, its lines kept for the test instead of printed. */
class RecordingEventLog extends DemoEventLog {
  readonly lines: string[] = [];
  private readonly listeners = new Set<() => void>();

  protected override write(line: string): void {
    this.lines.push(line);
    for (const wake of this.listeners) wake();
  }

  /** Resolves at the next line, or after `ms`, whichever comes first. */
  nextLine(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.listeners.add(done);
    });
  }
}

/**
 * The demo's own module and headers (DemoModule, as `npm start` configures it from `env`) on
 * 127.0.0.1, in this process: its base URL is that origin (Chromium keeps Secure cookies on
 * http://127.0.0.1, a potentially trustworthy origin), its database in-memory SQLite. Two things
 * differ from the built demo, neither seen by a page: bcrypt runs at the testing kit's low cost,
 * and the EVENT/MAIL lines are recorded in `lines` rather than printed (the suites of
 * apps/demo/test/demo run the built demo itself). `clock` replaces the library's AUTH_CLOCK.
 */
export async function startPageDemo(env: Record<string, string> = {}, options: { port?: number; clock?: Clock } = {}): Promise<DemoProcess> {
  const port = options.port ?? (await reserveLoopbackPort());
  const config = readDemoConfig({ PORT: String(port), AUTH_BASE_URL: `http://127.0.0.1:${port}`, DATABASE_URL: 'sqlite::memory:', AUTH_SECRET: DEMO_SECRET, ...env });
  let builder = Test.createTestingModule({ imports: [DemoModule.register(config)] })
    .overrideProvider(lowCostPasswordHasher.provide)
    .useClass(lowCostPasswordHasher.useClass)
    .overrideProvider(DemoEventLog)
    .useClass(RecordingEventLog);
  if (options.clock) builder = builder.overrideProvider(AUTH_CLOCK).useValue(options.clock);
  const moduleRef = await builder.compile();
  const app = configureDemoApp(moduleRef.createNestApplication<NestExpressApplication>(new TimedExpressAdapter(config.requestTimeouts), { logger: false, forceCloseConnections: true }));
  await app.listen(config.port, config.host);
  const log = moduleRef.get(DemoEventLog) as RecordingEventLog;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    lines: log.lines,
    stop: () => app.close(),
    async waitForLine(prefix, match = () => true) {
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = log.lines.filter((line) => line.startsWith(prefix)).map((line) => JSON.parse(line.slice(prefix.length)) as Record<string, unknown>).find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no ${prefix}line matched; the lines were:\n${log.lines.join('\n')}`);
        await log.nextLine(left);
      }
    },
  };
}

/** Registers an account through the API, for tests about what comes after signing up. */
export async function registerAccount(demo: Pick<DemoProcess, 'baseUrl'>, email: string, password: string): Promise<void> {
  const response = await fetch(`${demo.baseUrl}/auth/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 201) throw new Error(`signup of ${email} answered ${response.status}: ${await response.text()}`);
}
