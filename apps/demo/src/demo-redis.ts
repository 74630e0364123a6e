import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';

/** The demo's Redis client for the rate limiter (RATE_LIMIT_BACKEND=redis), closed at shutdown. */
@Injectable()
export class DemoRedis implements OnApplicationShutdown {
  constructor(readonly client: Redis) {}

  static connect(url: string): DemoRedis {
    // Fail fast instead of queueing commands while Redis is down: the limiter then answers 503.
    return new DemoRedis(new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false }));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
