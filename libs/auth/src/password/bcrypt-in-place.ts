import bcrypt from 'bcrypt';
import type { BcryptRunner } from './bcrypt-threads.js';

/**
 * bcrypt's own asynchronous calls (on libuv's pool), with nothing to start or stop: the testing
 * kit's hasher runs its hashes of about a millisecond here, where a thread of the library's own
 * (BcryptThreads) would cost each test application tens of milliseconds of CPU to start and stop.
 * Not for an application: its hashes of 70 ms and more belong on BcryptThreads (docs/decisions/0008-passwords.md).
 */
export const bcryptInPlace: BcryptRunner = {
  hash: (password, cost) => bcrypt.hash(password, cost),
  compare: (password, hash) => bcrypt.compare(password, hash),
  close: async () => undefined,
};
