import type { INestApplication } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Test } from '@nestjs/testing';
import { AUTH_CLOCK, type Clock } from '#svc/auth';
import { lowCostPasswordHasher } from '#svc/auth/testing';
import { readDemoConfig } from '../../../apps/demo/src/demo-config.js';
import { DemoEventLog } from '../../../apps/demo/src/demo-event-log.js';
import { DemoModule } from '../../../apps/demo/src/demo.module.js';
import { reserveLoopbackPort } from '../../support/listen.js';
import { DEMO_SECRET } from './built-demo.js';

/** The system clock plus an offset the test moves forward: the server's side of "time passes". */
export class ShiftableClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  shift(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface DemoWithClock {
  baseUrl: string;
  clock: ShiftableClock;
  stop(): Promise<void>;
}

/**
 * The demo's own module, in this process, with the library's AUTH_CLOCK replaced by a
 * ShiftableClock: access tokens can expire without a test waiting for minutes (the library
 * allows no lifetime under one minute). Its EVENT/MAIL printer is left out of Jest's output.
 */
export async function startDemoWithClock(env: Record<string, string>): Promise<DemoWithClock> {
  const port = await reserveLoopbackPort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = readDemoConfig({ PORT: String(port), AUTH_BASE_URL: baseUrl, DATABASE_URL: 'sqlite::memory:', AUTH_SECRET: DEMO_SECRET, ...env });
  const clock = new ShiftableClock();
  const moduleRef = await Test.createTestingModule({ imports: [DemoModule.register(config)] })
    .overrideProvider(AUTH_CLOCK)
    .useValue(clock)
    // bcrypt at the testing kit's low cost (the demo's 12 hashes at 6).
    .overrideProvider(lowCostPasswordHasher.provide)
    .useClass(lowCostPasswordHasher.useClass)
    // A silent stand-in: still an observer of every event (the reset mail must have one), printing nothing.
    .overrideProvider(DemoEventLog)
    .useFactory({ factory: (emitter: EventEmitter2) => emitter.onAny(() => undefined), inject: [EventEmitter2] })
    .compile();
  const app: INestApplication = moduleRef.createNestApplication({ logger: false });
  await app.listen(port, '127.0.0.1');
  return { baseUrl, clock, stop: () => app.close() };
}
