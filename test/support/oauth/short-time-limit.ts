import type { INestApplication } from '@nestjs/common';
import { ProviderTimeLimit } from '#svc/auth';

/** The configured section whose limit `callMs` reads. */
type CalledSection = Parameters<ProviderTimeLimit['callMs']>[0];

/**
 * The library's ProviderTimeLimit (docs/guides/testing.md), which a test may shorten
 * for the calls it makes wait: the configured providerTimeoutSeconds otherwise.
 */
export class AdjustableProviderTimeLimit extends ProviderTimeLimit {
  shortMs?: number;

  override callMs(section: CalledSection): number {
    return this.shortMs ?? super.callMs(section);
  }
}

/** The override the OAuth kits install (`overrides` of createTestApp). */
export const adjustableProviderTimeLimit = { provide: ProviderTimeLimit, useClass: AdjustableProviderTimeLimit };

/**
 * Runs `work` with every call to a provider limited to `ms` instead of providerTimeoutSeconds (a mapper
 * twice that): a provider that is slow or never answers costs the test `ms`, not seconds. The library
 * accepts only a limit shorter than the configured one.
 */
export async function withShortProviderCalls<T>(app: INestApplication, ms: number, work: () => Promise<T>): Promise<T> {
  const limit = app.get(ProviderTimeLimit);
  if (!(limit instanceof AdjustableProviderTimeLimit)) throw new Error('the app was built without adjustableProviderTimeLimit');
  limit.shortMs = ms;
  try {
    return await work();
  } finally {
    limit.shortMs = undefined;
  }
}
