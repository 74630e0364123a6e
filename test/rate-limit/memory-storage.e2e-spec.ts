import { MemoryRateLimitStorage } from '#svc/auth';
import { describeRateLimitStorageContract } from './support/storage-contract.js';

// The memory backend counts within one process: both "instances" are the same storage.
describeRateLimitStorageContract('memory', async (clock) => {
  const storage = new MemoryRateLimitStorage(clock);
  return { instances: [storage, storage], close: async () => storage.onApplicationShutdown() };
});
